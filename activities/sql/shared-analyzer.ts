import type { SchemaInfo } from '../../core/database/schema-types';
import { createSqlAnalyzer, type SchemaHint, type SqlAnalyzer } from '../../core/sql-analysis';

let analyzer: Promise<SqlAnalyzer> | null = null;

/** The chosen SQL analyzer, loaded once per process (its WASM module takes a moment to start). */
export function sharedSqlAnalyzer(): Promise<SqlAnalyzer> {
  analyzer ??= createSqlAnalyzer();
  return analyzer;
}

/** What the analyzer needs of a schema to resolve unqualified and double-quoted names. */
export function schemaHintOf(schema: SchemaInfo): SchemaHint {
  return { tables: schema.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })) };
}
