import type { SqlRow, SqlValue } from '../../core/sql-value';
import { quoteIdentifier } from './sql-identifiers';
import type { ColumnStats, ValueCount } from './target-database';
import type { Dialect } from '../../core/database/schema-types';

/** Runs one trusted, internally built query and returns its rows. */
export type InternalQuery = (sql: string) => Promise<SqlRow[]>;

/**
 * Table and column statistics for profiling, as plain SQL that both engines run the same way;
 * each TargetDatabase supplies how to run a query. NULLs are counted in `nullCount` and left
 * out of the value lists (most frequent values, samples).
 */
export class ColumnStatistics {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: InternalQuery,
  ) {}

  async rowCount(table: string): Promise<number> {
    const [row] = await this.query(`SELECT COUNT(*) FROM ${this.id(table)}`);
    return toCount(row[0]);
  }

  async columnStats(table: string, column: string): Promise<ColumnStats> {
    const c = this.id(column);
    const [row] = await this.query(`SELECT COUNT(*), COUNT(${c}), COUNT(DISTINCT ${c}), MIN(${c}), MAX(${c}) FROM ${this.id(table)}`);
    const rowCount = toCount(row[0]);
    return { rowCount, nullCount: rowCount - toCount(row[1]), distinctCount: toCount(row[2]), min: row[3], max: row[4] };
  }

  /** Most frequent first; ties in value order so the answer is stable. */
  async mostFrequentValues(table: string, column: string, limit: number): Promise<ValueCount[]> {
    const c = this.id(column);
    const rows = await this.query(
      `SELECT ${c}, COUNT(*) AS value_count FROM ${this.id(table)} WHERE ${c} IS NOT NULL ` +
        `GROUP BY ${c} ORDER BY value_count DESC, ${c} LIMIT ${checkLimit(limit)}`,
    );
    return rows.map((r) => ({ value: r[0], count: toCount(r[1]) }));
  }

  /** A random sample of distinct non-NULL values. */
  async sampleValues(table: string, column: string, limit: number): Promise<SqlValue[]> {
    const c = this.id(column);
    const random = this.dialect === 'mysql' ? 'RAND()' : 'RANDOM()';
    const rows = await this.query(
      `SELECT sample_value FROM (SELECT DISTINCT ${c} AS sample_value FROM ${this.id(table)} WHERE ${c} IS NOT NULL) AS distinct_values ` +
        `ORDER BY ${random} LIMIT ${checkLimit(limit)}`,
    );
    return rows.map((r) => r[0]);
  }

  private id(name: string): string {
    return quoteIdentifier(name, this.dialect);
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`limit must be a non-negative integer, got ${limit}`);
  return limit;
}

function toCount(v: SqlValue): number {
  if (typeof v !== 'number') throw new Error(`expected a count, got ${JSON.stringify(v)}`);
  return v;
}
