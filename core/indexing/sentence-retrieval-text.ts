import { nameTokens } from '../preparation/name-tokens';
import type { ColumnProfile } from '../profiling/column-profile';

/**
 * The profile index's texts for a neural embedder, which reads words as a person would: a
 * column's table and name spelt out as words (`StuID` of `Student` → "student: stu id"), with its
 * documentation, and the question as asked. Unlike core/indexing/retrieval-text (for the
 * lexical embedder) nothing is stemmed: "countri" is no word the model knows, and it already
 * relates "enrolled" to "enrolment" and "nation" to `Country` by meaning.
 */
export function renderProfileSentence(p: ColumnProfile): string {
  const doc = p.documentation;
  const name = `${nameTokens(p.table).join(' ')}: ${nameTokens(p.column).join(' ')}`;
  return [name, doc?.fullName, doc?.description].filter(Boolean).join('. ');
}
