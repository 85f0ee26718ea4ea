import type { ProfileConfig } from '../preparation/preparation-config';
import { hasIdentifierName } from '../preparation/name-tokens';
import type { SqlValue } from '../sql-value';
import type { ColumnProfile, CountedValue } from './column-profile';
import type { ColumnDocumentation } from './documentation';
import { inferValueFormat } from './value-format';

/** Cardinality statistics of one column over the rows that were scanned. */
export interface ColumnCardinality {
  rowCount: number;
  nonNullCount: number;
  distinctCount: number;
  min: SqlValue;
  max: SqlValue;
}

export interface ColumnProfileInput {
  table: string;
  column: { name: string; type: string; primaryKey: boolean };
  references: { table: string; column: string } | null;
  cardinality: ColumnCardinality;
  /** Distinct non-NULL values with their counts, most frequent first (at most `valueScanLimit`). */
  valueCounts: CountedValue[];
  /** A seeded random sample of all the column's distinct values (see seeded-sample.ts). */
  sample: SqlValue[];
  documentation: ColumnDocumentation | null;
  config: ProfileConfig;
}

/** Turns what the database told about a column into its profile (pure, so it is tested alone). */
export function buildColumnProfile(input: ColumnProfileInput): ColumnProfile {
  const { cardinality: c, valueCounts, config } = input;
  const values = valueCounts.map((v) => v.value);
  const { format, consistency } = inferValueFormat(values);
  const cut = (v: SqlValue) => truncateValue(v, config.maxValueChars);
  const primaryKey = input.column.primaryKey;
  return {
    table: input.table,
    column: input.column.name,
    declaredType: input.column.type,
    primaryKey,
    references: input.references,
    rowCount: c.rowCount,
    nullCount: c.rowCount - c.nonNullCount,
    nonNullCount: c.nonNullCount,
    distinctCount: c.distinctCount,
    min: cut(c.min),
    max: cut(c.max),
    range: typeof c.min === 'number' && typeof c.max === 'number' ? c.max - c.min : null,
    // A value seen once is not "frequent": for unique columns the sample says more.
    mostFrequent: valueCounts
      .filter((v) => v.count > 1)
      .slice(0, config.mostFrequentValues)
      .map((v) => ({ value: cut(v.value), count: v.count })),
    sample: input.sample.slice(0, config.sampleValues).map(cut),
    format,
    formatConsistency: consistency,
    textual: values.some((v) => typeof v === 'string'),
    uniqueness: c.nonNullCount === 0 ? 0 : Math.round((c.distinctCount / c.nonNullCount) * 1000) / 1000,
    identifier: primaryKey || input.references !== null || hasIdentifierName(input.column.name),
    documentation: input.documentation,
  };
}

export function truncateValue(value: SqlValue, maxChars: number): SqlValue {
  if (typeof value !== 'string' || value.length <= maxChars) return value;
  return value.slice(0, maxChars) + '…';
}
