import { performance } from 'node:perf_hooks';
import { withNamedRelations, type SqlWithParams } from './named-relations';
import { readOnlyStatement } from './read-only-guard';
import type { ExecuteOptions, StatementRows } from './target-database';
import type { Dialect } from '../../core/database/schema-types';
import type { QueryResult } from '../../core/database/query-result';

/** Node timers overflow past this (about 24.8 days) and would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Refuses limits that would silently mean something else (NaN, negative, fractional rows). */
export function checkExecuteOptions({ timeoutMs, maxRows, maxCellBytes }: ExecuteOptions): void {
  if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) throw new RangeError(`timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}, got ${timeoutMs}`);
  if (!(Number.isSafeInteger(maxRows) && maxRows >= 0)) throw new RangeError(`maxRows must be a non-negative integer, got ${maxRows}`);
  if (maxCellBytes !== undefined && !(Number.isSafeInteger(maxCellBytes) && maxCellBytes >= 16))
    throw new RangeError(`maxCellBytes must be an integer ≥ 16, got ${maxCellBytes}`);
}

/**
 * `execute` of a server engine: the limits checked, the statement guard, decodex's named
 * relations prepended to the text the guard checked (and returned), then `run` (the engine's
 * read-only path), timed.
 */
export async function executeGuarded(
  sql: string,
  options: ExecuteOptions,
  dialect: Dialect,
  run: (statement: SqlWithParams, limits: ExecuteOptions) => Promise<StatementRows>,
): Promise<QueryResult> {
  checkExecuteOptions(options);
  const checked = readOnlyStatement(sql, dialect);
  const started = performance.now();
  const result = await run(withNamedRelations(checked, options.relations ?? [], dialect), options);
  return { ...result, elapsedMs: performance.now() - started };
}
