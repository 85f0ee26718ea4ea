import { isPlausibleYear } from './date-values';
import { digitsValue, isNumberWord, numberWordsValue } from './number-words';
import type { QuestionLiteral } from './question-tree';
import type { QuestionToken } from './question-tokens';

/** Numbers and codes as literals, starting at a given token; `literal-values.ts` decides the order of passes. */

/**
 * Identifiers the tokenizer splits but the question writes as one word: "TR000_2_5", "10E",
 * "21:20:00". Adjacent tokens with no space between them form one code when the run mixes digits
 * with letters, underscores or colons.
 */
export function gluedCodeAt(tokens: QuestionToken[], i: number): { last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  if (i > 0 && tokens[i - 1].end === tokens[i].start && /[\p{L}\p{N}_]$/u.test(tokens[i - 1].text)) return null;
  let last = i;
  while (
    last + 1 < tokens.length &&
    tokens[last + 1].start === tokens[last].end &&
    /^[\p{L}\p{N}_:\-./]+$/u.test(tokens[last + 1].text) &&
    tokens[last + 1].text !== "'s"
  )
    last++;
  const text = tokens
    .slice(i, last + 1)
    .map((t) => t.text)
    .join('')
    .replace(/[.\-/]+$/, '');
  const single = last === i;
  // Clock times ("21:20:00", "6PM") and dash-joined numbers ("999-15-3685", the season "2007-2008") are stored as text.
  const isTime = /^\d{1,2}(?::\d{2}(?::\d{2})?|[AP]M)$/i.test(text) || /^\d+(?:-\d+)+$/.test(text);
  if (!isTime && (single || !/\d/.test(text) || !/[\p{L}_:]/u.test(text))) return null;
  if (!/^[\p{L}\p{N}_:\-./]+$/u.test(text)) return null;
  while (last > i && tokens[last].end > tokens[i].start + text.length) last--;
  return { last, literal: numberInCode(text) ?? { text, value: text, kind: 'code' } };
}

/**
 * A number written glued to its label or unit ("no.1701", "ID12882", "3000lbs", "7-star"): what
 * the SQL compares is the number, the label names the column.
 */
function numberInCode(text: string): Omit<QuestionLiteral, 'tokens'> | null {
  const m =
    /^(?:no\.?|id|#)(\d+(?:\.\d+)?)$/i.exec(text) ??
    /^(\d+(?:\.\d+)?)-?(?:lbs?|kg|g|oz|ounces?|stars?|km|cm|mm|m|mph|miles?|years?|yrs?|hours?|hrs?|minutes?|mins?|days?)$/i.exec(text);
  return m ? { text, value: Number(m[1]), kind: 'number' } : null;
}

/** A number starting at token i (digits, or a run of number words), as a literal. */
export function numberAt(tokens: QuestionToken[], i: number): { last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  const token = tokens[i];
  const digits = digitsValue(token.text);
  if (digits !== null) {
    const percent = tokens[i + 1]?.text === '%' || tokens[i + 1]?.lower === 'percent';
    const kind = percent ? 'percent' : isPlausibleYear(digits) && !token.text.includes('.') && !token.text.includes(',') ? 'year' : 'number';
    return { last: percent ? i + 1 : i, literal: { text: token.text, value: digits, kind } };
  }
  if (!isNumberWord(token.lower) || !isStandaloneNumberWord(tokens, i)) return null;
  let last = i;
  while (
    last + 1 < tokens.length &&
    (isNumberWord(tokens[last + 1].lower) ||
      (tokens[last + 1].lower === 'and' && ['hundred', 'thousand', 'million'].includes(tokens[last].lower) && isNumberWord(tokens[last + 2]?.lower ?? '')))
  )
    last++;
  const words = tokens.slice(i, last + 1).map((t) => t.text);
  const value = numberWordsValue(words);
  return value === null ? null : { last, literal: { text: words.join(' '), value, kind: 'number' } };
}

/** "one" is a pronoun in "which one", "one of", "no one"; every other number word is a number. */
function isStandaloneNumberWord(tokens: QuestionToken[], i: number): boolean {
  if (tokens[i].lower !== 'one') return true;
  const before = tokens[i - 1]?.lower ?? '';
  const after = tokens[i + 1]?.lower ?? '';
  return !['which', 'each', 'any', 'every', 'no', 'the', 'this', 'that', 'only'].includes(before) && after !== 'of' && after !== 'another';
}
