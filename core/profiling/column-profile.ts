import type { SqlValue } from '../sql-value';
import type { ColumnDocumentation } from './documentation';
import type { ValueFormat } from './value-format';

/** A value and how many rows hold it. */
export interface CountedValue {
  value: SqlValue;
  count: number;
}

/**
 * What DexterSQL's column profiler (§3.1.1) knows about one column: cardinality statistics,
 * representative values, the inferred value format, key-likeness, and the developer's
 * documentation when there is some. Values are cut to a bounded length: a profile is prompt text.
 */
export interface ColumnProfile {
  table: string;
  column: string;
  declaredType: string;
  primaryKey: boolean;
  /** The column this one references, when it is (part of) a declared foreign key. */
  references: { table: string; column: string } | null;

  /** Rows the statistics were computed over (the table's rows, or its scan bound). */
  rowCount: number;
  nullCount: number;
  nonNullCount: number;
  distinctCount: number;
  min: SqlValue;
  max: SqlValue;
  /** max - min for numeric columns, null otherwise. */
  range: number | null;

  mostFrequent: CountedValue[];
  sample: SqlValue[];
  format: ValueFormat;
  /** Share of the read values that fit `format` (1 = all of them). */
  formatConsistency: number;
  /** Text values are embedded into the value index; numbers are kept for exact/range matching. */
  textual: boolean;
  /** distinctCount / nonNullCount: 1 means every value is different. */
  uniqueness: number;
  /** A key or a reference to one: declared, or unique values with an identifier-like name. */
  identifier: boolean;
  documentation: ColumnDocumentation | null;
}

export interface TableProfile {
  table: string;
  /** Exact row count of the table. */
  rowCount: number;
  /**
   * Set when the table was larger than the scan bound: statistics cover a seeded random sample
   * of about this many rows (activities/profiling/sampled-rows.ts; each column's `rowCount`
   * says exactly how many).
   */
  scannedRows: number | null;
  description: string | null;
  columns: ColumnProfile[];
}
