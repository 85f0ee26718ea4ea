import type { Dialect } from '../../core/database/schema-types';

/**
 * A lexical scan of SQL that knows exactly what the engine treats as a comment, a string or
 * a quoted name, so a checker can look at keywords without being fooled by `'DELETE'`,
 * `"DROP"` or `-- ; DELETE`. Only the read-only guard uses it; it is not a parser.
 */
export type SqlToken =
  /** A bare word: keyword, unquoted identifier, function name. `upper` is for matching. */
  | { kind: 'word'; upper: string; start: number }
  /**
   * `"name"`, `` `name` ``, `[name]` (double quotes are strings in MySQL, see below; in PostgreSQL
   * a backtick is an operator character and brackets subscript arrays, so only "name"); `upper` is
   * the name without its quotes, for matching (a quoted name can still call a function).
   */
  | { kind: 'quoted'; upper: string; start: number }
  | { kind: 'string'; start: number }
  | { kind: 'number'; start: number }
  /** Any other single character: `;`, `(`, `)`, `,`, `=`, `@`, ... */
  | { kind: 'symbol'; text: string; start: number };

/** Where a comment lies in the text: `sql.slice(start, end)` is the whole comment, markers included. */
export interface CommentSpan {
  start: number;
  end: number;
}

/** Why a text could not be scanned; the guard turns it into a ReadOnlyViolation. */
export class SqlScanError extends Error {}

/** The engines' whitespace is ASCII only; U+00A0 and friends are identifier characters to them. */
const SPACE = /[ \t\n\r\f\v]/;
/** MySQL starts a `--` comment only before a space or control character. */
const SPACE_OR_CONTROL = /[\x00-\x20]/;
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;

/**
 * Splits `sql` into tokens, dropping whitespace and comments.
 *
 * MySQL rules assumed (the MySQL connection pins a session sql_mode that makes them true):
 * backslash escapes inside '...' and "..." (no NO_BACKSLASH_ESCAPES), "..." is a string (no
 * ANSI_QUOTES), `#` starts a comment, `--` starts one only before whitespace. MySQL's
 * executable comments (`/*! ... *\/`, `/*M! ... *\/`) hide code from a scanner, so they are refused.
 *
 * PostgreSQL rules assumed (the PostgreSQL session pins standard_conforming_strings on): '...'
 * has no backslash escapes but E'...' has, `$tag$ ... $tag$` is a string, `$1` a parameter,
 * block comments nest. U&'...' and U&"..." can spell a name in escapes a scanner cannot match,
 * so they are refused.
 */
export function tokenizeSql(sql: string, dialect: Dialect): SqlToken[] {
  return scanSql(sql, dialect).tokens;
}

/** The tokens of `sql` and the comments between them, as the engine of `dialect` reads it. */
export function scanSql(sql: string, dialect: Dialect): { tokens: SqlToken[]; comments: CommentSpan[] } {
  const tokens: SqlToken[] = [];
  const comments: CommentSpan[] = [];
  const mysql = dialect === 'mysql';
  const postgres = dialect === 'postgres';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    const start = i;
    if (SPACE.test(c)) {
      i++;
    } else if (c === '-' && next === '-' && (!mysql || i + 2 >= sql.length || SPACE_OR_CONTROL.test(sql[i + 2]))) {
      i = endOfLine(sql, i, postgres);
      comments.push({ start, end: i });
    } else if (c === '#' && mysql) {
      i = endOfLine(sql, i, false);
      comments.push({ start, end: i });
    } else if (c === '/' && next === '*') {
      if (mysql && (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!'))) {
        throw new SqlScanError('an executable comment (/*! ... */) hides SQL from checking');
      }
      if (postgres) {
        i = endOfNestedComment(sql, i);
      } else {
        const end = sql.indexOf('*/', i + 2);
        // SQLite accepts an unterminated block comment at the end of the text; MySQL rejects it.
        i = end < 0 ? sql.length : end + 2;
      }
      comments.push({ start, end: i });
    } else if (postgres && c === '$' && next !== undefined && DIGIT.test(next)) {
      for (i++; i < sql.length && DIGIT.test(sql[i]); i++);
      tokens.push({ kind: 'number', start });
    } else if (postgres && c === '$') {
      i = endOfDollarQuoted(sql, i);
      tokens.push({ kind: 'string', start });
    } else if (postgres && (c === 'E' || c === 'e') && next === "'" && !WORD_PART.test(sql[i - 1] ?? ' ')) {
      tokens.push({ kind: 'string', start: i });
      i = endOfQuoted(sql, i + 1, "'", true);
    } else if (postgres && (c === 'U' || c === 'u') && next === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"') && !WORD_PART.test(sql[i - 1] ?? ' ')) {
      throw new SqlScanError('a Unicode-escaped string or name (U&...) can spell a name the checker cannot see');
    } else if (c === "'") {
      tokens.push({ kind: 'string', start: i });
      i = endOfQuoted(sql, i, "'", mysql);
    } else if (c === '"') {
      i = endOfQuoted(sql, i, '"', mysql);
      tokens.push(mysql ? { kind: 'string', start } : { kind: 'quoted', upper: unquote(sql, start, i, '"'), start });
    } else if (c === '`' && !postgres) {
      i = endOfQuoted(sql, i, '`', false);
      tokens.push({ kind: 'quoted', upper: unquote(sql, start, i, '`'), start });
    } else if (c === '[' && dialect === 'sqlite') {
      const end = sql.indexOf(']', i + 1);
      if (end < 0) throw new SqlScanError('unterminated [quoted name]');
      tokens.push({ kind: 'quoted', upper: sql.slice(i + 1, end).toUpperCase(), start: i });
      i = end + 1;
    } else if (WORD_START.test(c) || (mysql && DIGIT.test(c) && startsIdentifierWithDigits(sql, i))) {
      while (i < sql.length && WORD_PART.test(sql[i])) i++;
      tokens.push({ kind: 'word', upper: sql.slice(start, i).toUpperCase(), start });
    } else if (DIGIT.test(c) || (c === '.' && next !== undefined && DIGIT.test(next))) {
      i = endOfNumber(sql, i);
      tokens.push({ kind: 'number', start });
    } else {
      tokens.push({ kind: 'symbol', text: c, start: i });
      i++;
    }
  }
  return { tokens, comments };
}

/** The name inside quotes that span `start` to `end` (exclusive), a doubled quote read as one. */
function unquote(sql: string, start: number, end: number, quote: string): string {
  return sql
    .slice(start + 1, end - 1)
    .split(quote + quote)
    .join(quote)
    .toUpperCase();
}

/** PostgreSQL's block comments nest: `/* /* *\/ still a comment *\/`. */
function endOfNestedComment(sql: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++;
      j += 2;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      j += 2;
      if (--depth === 0) return j;
    } else {
      j++;
    }
  }
  throw new SqlScanError('unterminated block comment');
}

/** `$tag$ ... $tag$` (the tag may be empty): index just past the closing delimiter. */
function endOfDollarQuoted(sql: string, i: number): number {
  const open = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i));
  if (!open) throw new SqlScanError('a "$" that is neither a parameter nor a dollar-quoted string');
  const end = sql.indexOf(open[0], i + open[0].length);
  if (end < 0) throw new SqlScanError('unterminated dollar-quoted string');
  return end + open[0].length;
}

/** A line comment ends at a newline; PostgreSQL's also at a carriage return. */
function endOfLine(sql: string, i: number, carriageReturnEnds: boolean): number {
  let j = i;
  while (j < sql.length && sql[j] !== '\n' && !(carriageReturnEnds && sql[j] === '\r')) j++;
  return Math.min(j + 1, sql.length);
}

/** Index just past a quoted run opened at `i`; a doubled quote is an escaped quote. */
function endOfQuoted(sql: string, i: number, quote: string, backslashEscapes: boolean): number {
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j];
    if (backslashEscapes && c === '\\') {
      j += 2;
    } else if (c === quote) {
      if (sql[j + 1] === quote) j += 2;
      else return j + 1;
    } else {
      j++;
    }
  }
  throw new SqlScanError(`unterminated ${quote === "'" ? 'string literal' : 'quoted name'}`);
}

function endOfNumber(sql: string, i: number): number {
  let j = i;
  if (sql[j] === '0' && /[xX]/.test(sql[j + 1] ?? '')) {
    j += 2;
    while (j < sql.length && /[0-9a-fA-F]/.test(sql[j])) j++;
    return j;
  }
  while (j < sql.length && /[0-9.]/.test(sql[j])) j++;
  if (/[eE]/.test(sql[j] ?? '') && /[-+0-9]/.test(sql[j + 1] ?? '')) {
    j += 2;
    while (j < sql.length && DIGIT.test(sql[j])) j++;
  }
  return j;
}

/** MySQL allows names such as `1st_place` that begin with digits but are not numbers. */
function startsIdentifierWithDigits(sql: string, i: number): boolean {
  let j = i;
  while (j < sql.length && DIGIT.test(sql[j])) j++;
  if (j >= sql.length) return false;
  const c = sql[j];
  if (/[eE]/.test(c) && /[-+0-9]/.test(sql[j + 1] ?? '')) return false; // 1e5, 1e-5
  if (/[xX]/.test(c) && sql[i] === '0' && j === i + 1) return false; // 0x1F
  return /[A-Za-z_$\u0080-\uffff]/.test(c);
}

/** The tokens of `sql`, or null when it cannot be scanned (for rewriters that leave such text alone). */
export function tokensOrNull(sql: string, dialect: Dialect): SqlToken[] | null {
  try {
    return tokenizeSql(sql, dialect);
  } catch (err) {
    if (err instanceof SqlScanError) return null;
    throw err;
  }
}
