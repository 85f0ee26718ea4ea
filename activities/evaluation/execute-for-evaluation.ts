import { performance } from 'node:perf_hooks';
import type { PairVerdict } from '../../core/evaluation/verdict';
import type { CellPosition, SqlRow } from '../../core/sql-value';
import { QueryTimeout, type TargetDatabase } from '../database/target-database';

/**
 * Results are compared whole, never truncated; a result larger than this is reported as its
 * own failure rather than compared on a prefix.
 */
export const EVALUATION_MAX_ROWS = 2_000_000;

export type Execution =
  | { ok: true; rows: SqlRow[]; integralReals?: CellPosition[]; elapsedMs: number }
  | { ok: false; kind: 'timeout' | 'error' | 'too_large'; message: string; elapsedMs: number };

/**
 * Runs one query for evaluation on the read-only executor, with a real timeout, and classifies
 * any failure. (Double-quoted string literals are read as stock SQLite reads them by the
 * executor itself: see activities/database/sqlite-legacy-strings.ts.)
 */
export async function executeForEvaluation(db: TargetDatabase, sql: string, timeoutMs: number): Promise<Execution> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  // BIRD's one timeout covers both queries: the second may be left with nothing.
  if (timeoutMs <= 0) return { ok: false, kind: 'timeout', message: 'no time left of the shared timeout', elapsedMs: 0 };
  try {
    const result = await db.execute(sql, { timeoutMs: Math.ceil(timeoutMs), maxRows: EVALUATION_MAX_ROWS });
    if (result.truncated) return { ok: false, kind: 'too_large', message: `more than ${EVALUATION_MAX_ROWS} rows`, elapsedMs: elapsed() };
    // Whole numbers stored as REAL travel along: Spider's rule can tell 1.0 from 1 (BIRD's cannot).
    return { ok: true, rows: result.rows, integralReals: result.integralReals, elapsedMs: result.elapsedMs };
  } catch (err) {
    if (err instanceof QueryTimeout) return { ok: false, kind: 'timeout', message: `stopped at the ${timeoutMs} ms timeout`, elapsedMs: elapsed() };
    return { ok: false, kind: 'error', message: (err as Error).message, elapsedMs: elapsed() };
  }
}

/** The verdict of a pair whose `side` query failed: its timeout, error or oversize. */
export function failureVerdict(execution: Extract<Execution, { ok: false }>, side: 'pred' | 'gold'): PairVerdict {
  if (execution.kind === 'too_large') return { verdict: 'too_large', detail: `${side}: ${execution.message}` };
  return { verdict: execution.kind === 'timeout' ? `${side}_timeout` : `${side}_error`, detail: execution.message };
}
