import type { CellPosition, SqlRow } from '../sql-value';

/** Rows a statement returned on a target database, bounded by its row limit. */
export interface QueryResult {
  columns: string[];
  rows: SqlRow[];
  truncated: boolean;
  elapsedMs: number;
  /**
   * SQLite only, set when there are some: the cells holding a whole-valued REAL (1.0), the one
   * storage class a number cannot carry. Everything else about a value's type is in its form.
   */
  integralReals?: CellPosition[];
}
