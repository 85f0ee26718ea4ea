import { nameTokens } from '../preparation/name-tokens';
import type { ProfileIndexText } from '../preparation/preparation-config';
import type { ColumnProfile } from '../profiling/column-profile';
import { renderSqlValue } from '../sql-value';

/**
 * The profile index's texts for a neural embedder, which reads words as a person would: a
 * column's table and name spelt out as words (`StuID` of `Student` → "student: stu id"), with its
 * documentation, and the question as asked. Unlike core/indexing/retrieval-text (for the
 * lexical embedder) nothing is stemmed: "countri" is no word the model knows, and it already
 * relates "enrolled" to "enrolment" and "nation" to `Country` by meaning.
 */
export function renderProfileSentence(p: ColumnProfile, text: ProfileIndexText = 'names'): string {
  const doc = p.documentation;
  const name = `${nameTokens(p.table).join(' ')}: ${nameTokens(p.column).join(' ')}`;
  // `profile` adds what the paper's profile holds beyond names: type, value format, sample values.
  const profile =
    text === 'profile' ? [`${p.declaredType || 'untyped'} ${p.format.replace(/_/g, ' ')}`, `e.g. ${p.sample.map(renderSqlValue).join(', ')}`] : [];
  return [name, doc?.fullName, doc?.description, ...profile].filter(Boolean).join('. ');
}
