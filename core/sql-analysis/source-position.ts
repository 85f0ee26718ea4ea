import type { SqlSyntaxError } from './sql-analyzer';

/**
 * Parsers disagree on positions (polyglot counts Unicode code points and reports the column after
 * the bad token; node-sql-parser counts UTF-16 units), so every adapter reduces its error to a
 * JavaScript string offset and line/column are derived here, the same way for all of them.
 */
export function syntaxErrorAt(sql: string, message: string, offset: number | undefined): SqlSyntaxError {
  if (offset === undefined || !Number.isFinite(offset)) return { message };
  const clamped = Math.max(0, Math.min(offset, sql.length));
  const before = sql.slice(0, clamped);
  const lastNewline = before.lastIndexOf('\n');
  return { message, line: before.split('\n').length, column: clamped - lastNewline, offset: clamped };
}

/** The UTF-16 index of the `codePoint`-th code point (characters outside the BMP count once). */
export function codePointToUtf16Offset(sql: string, codePoint: number): number {
  let offset = 0;
  for (let i = 0; i < codePoint && offset < sql.length; i++) offset += sql.codePointAt(offset)! > 0xffff ? 2 : 1;
  return offset;
}
