/**
 * Splits SQL text into lexical units without losing a character: quoted strings and names
 * ('...', "...", `...`, [...]), comments, words, and single other characters. Joining the units
 * gives the text back, so a rewrite can change one kind of unit and leave the rest untouched.
 */
export interface SqlUnit {
  kind: 'quoted' | 'comment' | 'word' | 'other';
  text: string;
}

// sqlparse's word token (what test-suite-sql-eval tokenizes with): a letter, digit or
// underscore, then word characters, `_`, `$`, `#`.
const WORD = /[0-9_\p{L}][_$#\p{L}\p{N}]*/uy;

export function sqlUnits(sql: string): SqlUnit[] {
  const units: SqlUnit[] = [];
  let i = 0;
  while (i < sql.length) {
    const { kind, end } = unitAt(sql, i);
    units.push({ kind, text: sql.slice(i, end) });
    i = end;
  }
  return units;
}

function unitAt(sql: string, i: number): { kind: SqlUnit['kind']; end: number } {
  const c = sql[i];
  if (c === "'" || c === '"' || c === '`') return { kind: 'quoted', end: endOfQuoted(sql, i, c) };
  if (c === '[') return { kind: 'quoted', end: closeAt(sql, sql.indexOf(']', i + 1), 1) };
  if (c === '-' && sql[i + 1] === '-') return { kind: 'comment', end: closeAt(sql, sql.indexOf('\n', i), 0) };
  if (c === '/' && sql[i + 1] === '*') return { kind: 'comment', end: closeAt(sql, sql.indexOf('*/', i + 2), 2) };
  WORD.lastIndex = i;
  if (WORD.test(sql)) return { kind: 'word', end: WORD.lastIndex };
  return { kind: 'other', end: i + 1 };
}

function endOfQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] !== quote) i++;
    else if (sql[i + 1] === quote)
      i += 2; // a doubled quote stays inside
    else return i + 1;
  }
  return sql.length;
}

function closeAt(sql: string, found: number, extra: number): number {
  return found < 0 ? sql.length : found + extra;
}

/** The text inside a "..." unit, with doubled quotes undone. */
export function unquoteDoubleQuoted(text: string): string | null {
  if (text.length < 2 || text[0] !== '"' || text[text.length - 1] !== '"') return null;
  return text.slice(1, -1).replaceAll('""', '"');
}

/** A single-quoted SQL string literal holding `value`. */
export function singleQuotedLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
