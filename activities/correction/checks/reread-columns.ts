import type { Dialect } from '../../../core/database/schema-types';
import { tokensOrNull } from '../../database/sql-tokens';

/**
 * The query with each `from.column` (a column of `columns`, read through the reference `from`: an
 * alias or a table name, as the scanner names it, upper-cased and unquoted; see without-joins.ts's
 * `fromTables`) read as `to.column` instead (`to` as the query writes it), or null when the text
 * cannot be scanned. Column names compare case-insensitively, as the engines compare unquoted ones.
 */
export function rereadColumns(sql: string, dialect: Dialect, from: string, to: string, columns: readonly string[]): string | null {
  const tokens = tokensOrNull(sql, dialect);
  if (!tokens) return null;
  const wanted = new Set(columns.map((c) => c.toUpperCase()));
  const source = from.toUpperCase();
  const name = (i: number) => {
    const t = tokens[i];
    return t && (t.kind === 'word' || t.kind === 'quoted') ? t.upper : null;
  };
  let out = '';
  let at = 0;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const dot = tokens[i + 1];
    if (name(i) !== source || dot.kind !== 'symbol' || dot.text !== '.' || !wanted.has(name(i + 2) ?? '')) continue;
    const column = columnText(i + 2);
    out += `${sql.slice(at, tokens[i].start)}${to}.${column}`;
    at = tokens[i + 2].start + column.length;
    i += 2;
  }
  return out + sql.slice(at);

  function columnText(i: number): string {
    return sql.slice(tokens![i].start, tokens![i + 1]?.start ?? sql.length).trimEnd();
  }
}
