import type { SqlRow, SqlValue } from '../../core/sql-value';
import { ColumnStatistics } from './column-statistics';
import type { ColumnStats, ValueCount } from './target-database';
import type { Dialect } from '../../core/database/schema-types';

/**
 * The statistics half of TargetDatabase, the same for every engine: both compute row counts,
 * distinct/null counts, min/max, frequent values and samples with ColumnStatistics' SQL over
 * their own internal (read-only, time-limited) query path.
 */
export abstract class StatisticsFromSql {
  private readonly stats: ColumnStatistics;

  protected constructor(dialect: Dialect) {
    this.stats = new ColumnStatistics(dialect, (sql) => this.internalQuery(sql));
  }

  /** Runs decodex's own SQL (introspection, statistics) on the engine's read-only path. */
  protected abstract internalQuery(sql: string): Promise<SqlRow[]>;

  rowCount(table: string): Promise<number> {
    return this.stats.rowCount(table);
  }

  columnStats(table: string, column: string): Promise<ColumnStats> {
    return this.stats.columnStats(table, column);
  }

  mostFrequentValues(table: string, column: string, limit: number): Promise<ValueCount[]> {
    return this.stats.mostFrequentValues(table, column, limit);
  }

  sampleValues(table: string, column: string, limit: number): Promise<SqlValue[]> {
    return this.stats.sampleValues(table, column, limit);
  }
}
