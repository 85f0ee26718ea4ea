import type { Dialect } from '../../core/database/schema-types';
import { tokensOrNull } from '../database/sql-tokens';

/**
 * `sql` with every bare occurrence of the identifier `from` (any case, qualified or not) written
 * as `to`; strings, comments and quoted names are left alone. Null when nothing was replaced or
 * the text cannot be scanned.
 */
export function respellName(sql: string, dialect: Dialect, from: string, to: string): string | null {
  const tokens = tokensOrNull(sql, dialect);
  if (!tokens) return null;
  const target = from.toUpperCase();
  const starts = tokens.filter((t) => t.kind === 'word' && t.upper === target).map((t) => t.start);
  if (!starts.length) return null;
  let out = '';
  let at = 0;
  for (const start of starts) {
    out += sql.slice(at, start) + to;
    at = start + from.length;
  }
  return out + sql.slice(at);
}
