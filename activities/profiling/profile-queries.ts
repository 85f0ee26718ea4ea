import type { SqlValue } from '../../core/sql-value';
import type { CountedValue } from '../../core/profiling/column-profile';
import type { ColumnCardinality } from '../../core/profiling/build-column-profile';
import { aggregateForms } from '../database/aggregate-forms';
import type { AggregateForms } from '../../core/database/aggregate-forms';
import type { TargetDatabase } from '../database/target-database';
import type { ColumnInfo } from '../../core/database/schema-types';

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
  async cardinality(columns: ColumnInfo[]): Promise<ColumnCardinality[]> {
    const parts = columns.flatMap((column) => {
      const forms = this.forms(column);
      return [`COUNT(${forms.value})`, `COUNT(DISTINCT ${forms.value})`, forms.min, forms.max];
    });
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
   * In one grouping of the column's non-NULL values, ranked most frequent first (ties by value,
   * so the order is total and stable): the first `limit` with their counts, and the values at
   * the given `ranks` (the seeded sample, see core/profiling/seeded-sample.ts; any fixed order
   * of the distinct values gives a uniform sample), in the order of `ranks`.
   */
  async distribution(column: ColumnInfo, limit: number, ranks: number[]): Promise<{ valueCounts: CountedValue[]; sample: SqlValue[] }> {
    const c = this.forms(column).value;
    const grouped = `FROM ${this.source} WHERE ${c} IS NOT NULL GROUP BY ${c}`;
    const beyond = ranks.filter((r) => r > limit);
    // Usually every sampled rank is among the first `limit` (always when there are at most
    // `limit` distinct values): the plain top-`limit` query has them all.
    const rows =
      beyond.length === 0
        ? await this.run(`SELECT ${c}, COUNT(*) AS value_count ${grouped} ORDER BY value_count DESC, ${c} LIMIT ${limit}`, limit)
        : await this.run(
            `SELECT v, value_count FROM (SELECT ${c} AS v, COUNT(*) AS value_count, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, ${c}) AS value_rank ${grouped}) AS ranked ` +
              `WHERE value_rank <= ${limit} OR value_rank IN (${beyond.join(', ')}) ORDER BY value_rank`,
            limit + beyond.length,
          );
    // Rows past `limit` are the ranks beyond it, in ascending order.
    const sorted = [...beyond].sort((a, b) => a - b);
    const valueAt = (rank: number) => (rank <= limit ? rows[rank - 1]?.[0] : rows[limit + sorted.indexOf(rank)]?.[0]);
    return {
      valueCounts: rows.slice(0, limit).map((r) => ({ value: r[0], count: count(r[1]) })),
      sample: ranks.map(valueAt).filter((v): v is SqlValue => v !== undefined),
    };
  }

  private async run(sql: string, maxRows: number): Promise<SqlValue[][]> {
    return (await this.db.execute(sql, { timeoutMs: this.timeoutMs, maxRows })).rows;
  }

  /** The column as each aggregate takes it: PostgreSQL aggregates fewer types than SQLite and MySQL. */
  private forms(column: ColumnInfo): AggregateForms {
    return aggregateForms(this.db.dialect, column.name, column.type);
  }
}

function count(v: SqlValue): number {
  if (typeof v !== 'number') throw new Error(`expected a count, got ${JSON.stringify(v)}`);
  return v;
}
