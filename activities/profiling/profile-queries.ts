import type { SqlValue } from '../../core/sql-value';
import type { CountedValue } from '../../core/profiling/column-profile';
import type { ColumnCardinality } from '../../core/profiling/build-column-profile';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';

/**
 * The profiler's SQL, run through `TargetDatabase.execute` (read-only, with a timeout) rather
 * than the per-column statistics methods, for two reasons:
 * - a table larger than the scan bound is read through a row sample (see sampled-rows.ts),
 *   which those methods cannot express;
 * - one scan computes the cardinality of many columns at once (one query per table instead of
 *   one per column), which is most of the profiling time on databases with many small tables.
 */
export class ProfileQueries {
  constructor(
    private readonly db: TargetDatabase,
    /** The table, or a parenthesised sample of its rows with an alias. */
    private readonly source: string,
    private readonly timeoutMs: number,
  ) {}

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

  /**
   * In one grouping of the column's non-NULL values: the `limit` most frequent with their
   * counts (ties by value, stable), and the values at the given `ranks` of the distinct values
   * in the database's order (the seeded sample, see core/profiling/seeded-sample.ts), in the
   * order of `ranks`.
   */
  async distribution(column: string, limit: number, ranks: number[]): Promise<{ valueCounts: CountedValue[]; sample: SqlValue[] }> {
    const c = this.id(column);
    const wanted = ranks.length > 0 ? `OR value_rank IN (${ranks.join(', ')})` : '';
    const rows = await this.run(
      `SELECT v, value_count, value_rank, frequency_rank FROM (` +
        `SELECT ${c} AS v, COUNT(*) AS value_count, ROW_NUMBER() OVER (ORDER BY ${c}) AS value_rank, ` +
        `ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, ${c}) AS frequency_rank ` +
        `FROM ${this.source} WHERE ${c} IS NOT NULL GROUP BY ${c}) AS grouped ` +
        `WHERE frequency_rank <= ${limit} ${wanted} ORDER BY frequency_rank`,
      limit + ranks.length,
    );
    const byRank = new Map(rows.map((r) => [count(r[2]), r[0]]));
    return {
      valueCounts: rows.filter((r) => count(r[3]) <= limit).map((r) => ({ value: r[0], count: count(r[1]) })),
      sample: ranks.filter((rank) => byRank.has(rank)).map((rank) => byRank.get(rank)!),
    };
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
