import { rowKey } from '../evaluation/row-key';
import type { SqlRow } from '../sql-value';
import { stringHash64Hex } from '../string-hash';

/**
 * A result set's identity for clustering: the set of its rows as BIRD compares them (order and
 * duplicates ignored, column order kept), hashed to a short string so it can travel in workflow
 * history. A result cut at the row cap says so, so it never equals the complete one.
 */
export function resultKey(rows: SqlRow[], truncated: boolean): string {
  const keys = [...new Set(rows.map(rowKey))].sort();
  return `${stringHash64Hex(keys.join('\n'))}:${keys.length}${truncated ? ':cut' : ''}`;
}
