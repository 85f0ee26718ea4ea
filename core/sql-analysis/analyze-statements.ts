import type { QueryOutline } from './query-model';
import { resolveQuery } from './resolve-query';
import type { SchemaHint, SqlAnalysis } from './sql-analyzer';

/**
 * The step after parsing, shared by every adapter: text-to-SQL output must be exactly one query,
 * so an empty string, several statements or a non-query statement are reported, not analysed.
 * `outlines` holds one entry per parsed statement, null where the statement is not a query.
 */
export function analyzeStatements(outlines: (QueryOutline | null)[], schema: SchemaHint | undefined): SqlAnalysis {
  if (outlines.length === 0) return { ok: false, error: { message: 'no SQL statement' } };
  if (outlines.length > 1) return { ok: false, error: { message: `expected one SQL statement, found ${outlines.length}` } };
  const [outline] = outlines;
  if (!outline) return { ok: false, error: { message: 'not a query: expected SELECT, WITH or a compound SELECT' } };
  return resolveQuery(outline, schema);
}
