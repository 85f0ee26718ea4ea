import type { SchemaInfo } from '../../../core/database/schema-types';
import type { SqlAnalysis } from '../../../core/sql-analysis';
import type { SqlRow } from '../../../core/sql-value';

/** What every diagnostic check reads: the candidate, its parse, and what running it gave. */
export interface CheckInput {
  question: string;
  sql: string;
  schema: SchemaInfo;
  analysis: SqlAnalysis;
  /** The same analyzer, schema and dialect, for a variant of the query a check builds. */
  analyze: (sql: string) => SqlAnalysis;
  execution: { ok: true; columns: string[]; rows: SqlRow[]; truncated: boolean } | { ok: false; kind: string; message: string };
}
