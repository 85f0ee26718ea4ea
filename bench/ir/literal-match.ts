/**
 * How `bench/ir.ts` decides that a gold SQL literal "appears in the question" and that the tree
 * "captured" it. Both compare normalised forms: text case-insensitively with LIKE wildcards
 * stripped, numbers as numbers (so "three", "1,000" and "5%" match 3, 1000 and 5).
 */
import type { SqlLiteral } from '../../core/sql-analysis';
import type { QuestionLiteral, QuestionTree } from '../../core/generation/dependency-tree';
import { digitsValue, numberWordsValue } from '../../core/generation/dependency-tree/number-words';

/** The literal as compared: a number, or lowercased text without SQL LIKE's `%` at either end. */
export function normaliseGoldLiteral(literal: SqlLiteral): string | number | null {
  if (typeof literal === 'number') return literal;
  const text = literal
    .replace(/^%+|%+$/g, '')
    .trim()
    .toLowerCase();
  if (text === '') return null;
  const n = digitsValue(text);
  return n !== null ? n : text;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.,'/-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

/** Word-aligned: "Y" does not appear in "year", 1 does not appear in "107829". */
export function appearsInQuestion(literal: string | number, question: string): boolean {
  const lower = question.toLowerCase();
  if (typeof literal === 'string') {
    const escaped = literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(lower);
  }
  const words = lower.match(WORD) ?? [];
  return words.some(
    (w, i) => digitsValue(w.replace(/[.,]$/, '')) === literal || numberWordsValue([w]) === literal || numberWordsValue(words.slice(i, i + 2)) === literal,
  );
}

/**
 * Captured: equal to a tree literal's value or text, or to a run of whole words of its text
 * ("Smith" of "Bob Smith", "2005" of "September 2005"): the skeleton shows the whole phrase, and
 * whether a name or date is split across columns is the schema's business, not the question's.
 */
export function capturedBy(literal: string | number, values: QuestionLiteral[]): boolean {
  return values.some((v) => {
    if (typeof literal === 'number')
      return (
        v.value === literal ||
        digitsValue(String(v.value)) === literal ||
        (v.kind === 'date' || v.kind === 'proper_noun' || v.kind === 'quoted' ? wordRunOf(String(literal), v.text) : false)
      );
    return String(v.value).toLowerCase() === literal || v.text.toLowerCase() === literal || wordRunOf(literal, v.text.toLowerCase());
  });
}

function wordRunOf(needle: string, text: string): boolean {
  const words = text.toLowerCase().match(WORD) ?? [];
  const target = needle.toLowerCase().match(WORD) ?? [];
  if (target.length === 0) return false;
  for (let i = 0; i + target.length <= words.length; i++) if (target.every((w, k) => words[i + k] === w)) return true;
  return false;
}

/**
 * Every value the skeleton shows the model: condition values, the words offered as possible values
 * (on their own line, as guesses) and the LIMIT count.
 */
export function treeValues(tree: QuestionTree): QuestionLiteral[] {
  const values = [...tree.filters, ...tree.temporal, ...tree.possibleValues].flatMap((f) => f.values);
  if (tree.limit !== null) values.push({ text: String(tree.limit), value: tree.limit, kind: 'number', tokens: [-1, -1] });
  return values;
}
