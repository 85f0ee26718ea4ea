import { sqlValueKey, type SqlRow } from '../sql-value';

/**
 * One string per result row, equal for two rows exactly when Python would find the tuples
 * equal: same length and pairwise Python-equal values (1 == 1.0, '1' != 1, None == None, exact
 * floats, integers beyond 2^53 compared digit for digit). Both official scripts compare rows as
 * Python tuples, so every evaluator here compares these keys.
 */
export function rowKey(row: SqlRow): string {
  return JSON.stringify(row.map(sqlValueKey));
}
