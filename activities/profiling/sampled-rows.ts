import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';

/** A prime just below 2^31: products of two residues stay exact in SQLite's 64-bit integers. */
const P = 2147483647;

/**
 * What the profiler reads of a table: all of it, or, when it has more than `rowLimit` rows, a
 * reproducible random sample of about `rowLimit` rows spread over the whole table (not its
 * first rows, which on many tables are its oldest or a single batch).
 * - SQLite: each row is kept by a hash of its rowid (a multiplicative step, then squaring mod
 *   P, which breaks the regular spacing of consecutive rowids) below a threshold. A WITHOUT
 *   ROWID table has no rowid: its first rows are read, as before.
 * - MySQL: `RAND(seed)` per row, which MySQL repeats exactly for the same seed and scan order.
 * - PostgreSQL: TABLESAMPLE BERNOULLI with REPEATABLE(seed), the same rows for the same table.
 */
export async function profiledRows(
  db: TargetDatabase,
  table: string,
  rowCount: number,
  rowLimit: number,
  timeoutMs: number,
): Promise<{ source: string; sampled: boolean }> {
  const t = quoteIdentifier(table, db.dialect);
  if (rowCount <= rowLimit) return { source: t, sampled: false };
  const fraction = rowLimit / rowCount;
  if (db.dialect === 'postgres')
    return { source: `(SELECT * FROM ${t} TABLESAMPLE BERNOULLI (${fraction * 100}) REPEATABLE (${SEED})) AS sampled_rows`, sampled: true };
  if (db.dialect === 'mysql') return { source: `(SELECT * FROM ${t} WHERE RAND(${SEED}) < ${fraction}) AS sampled_rows`, sampled: true };
  if (!(await hasRowid(db, t, timeoutMs))) return { source: `(SELECT * FROM ${t} LIMIT ${rowLimit}) AS scanned`, sampled: false };
  const x = `(((abs(_rowid_) % ${P}) * 48271 + ${SEED}) % ${P})`;
  return { source: `(SELECT * FROM ${t} WHERE (${x} * ${x}) % ${P} < ${Math.floor(fraction * P)}) AS sampled_rows`, sampled: true };
}

const SEED = 20240607;

async function hasRowid(db: TargetDatabase, quotedTable: string, timeoutMs: number): Promise<boolean> {
  try {
    await db.execute(`SELECT _rowid_ FROM ${quotedTable} LIMIT 0`, { timeoutMs, maxRows: 1 });
    return true;
  } catch {
    return false;
  }
}
