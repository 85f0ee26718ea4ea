import { isSqliteKeyword } from './sqlite-keywords';

/**
 * A parser built for many dialects reserves words SQLite does not (polyglot reads `percent` in
 * `COUNT(x) percent FROM` as T-SQL's TOP ... PERCENT). When parsing fails right after or at such a
 * word, quoting it as an identifier is a no-op for SQLite and lets the parser through. Returns the
 * SQL with that one word backtick-quoted, or null when no word at the failure qualifies.
 */
export function quoteMisreadIdentifier(sql: string, failureOffset: number): string | null {
  for (const word of [wordBefore(sql, failureOffset), wordAt(sql, failureOffset)]) {
    if (word && isRequotable(sql, word)) {
      return `${sql.slice(0, word.start)}\`${word.text}\`${sql.slice(word.end)}`;
    }
  }
  return null;
}

interface Word {
  start: number;
  end: number;
  text: string;
}

const WORD_CHAR = /[A-Za-z0-9_$]/;
/** Not keywords to SQLite, but quoting them would turn a boolean constant into a column name. */
const CONSTANT_NAMES = new Set(['TRUE', 'FALSE']);

function wordAt(sql: string, offset: number): Word | null {
  let end = offset;
  while (end < sql.length && WORD_CHAR.test(sql[end])) end++;
  return end > offset ? { start: offset, end, text: sql.slice(offset, end) } : null;
}

function wordBefore(sql: string, offset: number): Word | null {
  let end = Math.min(offset, sql.length);
  while (end > 0 && /\s/.test(sql[end - 1])) end--;
  let start = end;
  while (start > 0 && WORD_CHAR.test(sql[start - 1])) start--;
  return end > start ? { start, end, text: sql.slice(start, end) } : null;
}

function isRequotable(sql: string, word: Word): boolean {
  if (!/^[A-Za-z_]/.test(word.text) || isSqliteKeyword(word.text) || CONSTANT_NAMES.has(word.text.toUpperCase())) return false;
  const before = sql[word.start - 1] ?? '';
  if (/["'`\[]/.test(before)) return false; // already inside quotes
  return !/^\s*\(/.test(sql.slice(word.end)); // a function name, not an identifier
}
