import type { QueryResult } from '../../core/database/query-result';
import type { BoundedQueryResult } from '../../core/question/sql-execution';
import { boundRowBytes, type ResultByteLimits } from '../../core/result-bytes';

/** The result with only its first `kept` rows (and the whole-valued REAL cells among them). */
function keepRows(result: QueryResult, kept: number, truncated: boolean): QueryResult {
  const { integralReals, ...rest } = result;
  const keptReals = integralReals?.filter(([r]) => r < kept);
  return { ...rest, rows: result.rows.slice(0, kept), truncated, ...(keptReals?.length ? { integralReals: keptReals } : {}) };
}

/** The first `maxRows` rows of a result read with a larger row limit: what a run with `maxRows` returns. */
export function firstRows(result: QueryResult, maxRows: number): QueryResult {
  return result.rows.length <= maxRows ? result : keepRows(result, maxRows, true);
}

/** Cells and rows past the byte limits are cut, so a result never makes a payload Temporal refuses. */
export function boundResult(result: QueryResult, limits: ResultByteLimits): BoundedQueryResult {
  const { rows, truncation } = boundRowBytes(result.rows, limits);
  if (!truncation) return result;
  const kept = keepRows(result, rows.length, result.truncated || truncation.droppedRows > 0);
  return { ...kept, rows, byteLimit: truncation };
}

/**
 * A result as the answer returns it: its first `maxRows` rows, cut to the byte limits. executeSql
 * and a lone candidate's diagnosis (which reads more rows for itself) both shape the answer here,
 * so whichever ran, the caller gets the same rows.
 */
export function answerResult(read: QueryResult, limits: ResultByteLimits & { maxRows: number }): BoundedQueryResult {
  return boundResult(firstRows(read, limits.maxRows), limits);
}
