import type { SqlValue } from '../../core/sql-value';
import type { CountedValue } from '../../core/profiling/column-profile';
import type { ColumnCardinality } from '../../core/profiling/build-column-profile';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';

/**
 * The profiler's SQL, run through `TargetDatabase.execute` (read-only, with a timeout) rather
 * than the per-column statistics methods, for two reasons:
 * - a table larger than the scan bound is read through `(SELECT ... LIMIT n)`, which those
 *   methods cannot express, so a huge table costs a bounded scan, not an unbounded one;
 * - one scan computes the cardinality of many columns at once (one query per table instead of
 *   one per column), which is most of the profiling time on databases with many small tables.
 */
export class ProfileQueries {
  private readonly source: string;

  constructor(
    private readonly db: TargetDatabase,
    table: string,
    /** Read at most this many rows of the table; null reads all of them. */
    scanLimit: number | null,
    private readonly timeoutMs: number,
  ) {
    const t = this.id(table);
    this.source = scanLimit === null ? t : `(SELECT * FROM ${t} LIMIT ${scanLimit}) AS scanned`;
  }

  /** Row count, non-NULL count, distinct count, MIN and MAX of each column, in one scan. */
  async cardinality(columns: string[]): Promise<ColumnCardinality[]> {
    const parts = columns.flatMap((c) => [`COUNT(${this.id(c)})`, `COUNT(DISTINCT ${this.id(c)})`, `MIN(${this.id(c)})`, `MAX(${this.id(c)})`]);
    const [row] = await this.run(`SELECT COUNT(*), ${parts.join(', ')} FROM ${this.source}`, 1);
    const rowCount = count(row[0]);
    return columns.map((_, i) => ({
      rowCount,
      nonNullCount: count(row[1 + i * 4]),
      distinctCount: count(row[2 + i * 4]),
      min: row[3 + i * 4],
      max: row[4 + i * 4],
    }));
  }

  /** Distinct non-NULL values with their counts, most frequent first, ties by value (stable). */
  async valueCounts(column: string, limit: number): Promise<CountedValue[]> {
    const c = this.id(column);
    const rows = await this.run(
      `SELECT ${c}, COUNT(*) AS value_count FROM ${this.source} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY value_count DESC, ${c} LIMIT ${limit}`,
      limit,
    );
    return rows.map((r) => ({ value: r[0], count: count(r[1]) }));
  }

  private async run(sql: string, maxRows: number): Promise<SqlValue[][]> {
    return (await this.db.execute(sql, { timeoutMs: this.timeoutMs, maxRows })).rows;
  }

  private id(name: string): string {
    return quoteIdentifier(name, this.db.dialect);
  }
}

function count(v: SqlValue): number {
  if (typeof v !== 'number') throw new Error(`expected a count, got ${JSON.stringify(v)}`);
  return v;
}
