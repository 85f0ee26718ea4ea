import type { ExecuteOptions } from './target-database';

/** Node timers overflow past this (about 24.8 days) and would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Refuses limits that would silently mean something else (NaN, negative, fractional rows). */
export function checkExecuteOptions({ timeoutMs, maxRows, maxCellBytes }: ExecuteOptions): void {
  if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) throw new RangeError(`timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}, got ${timeoutMs}`);
  if (!(Number.isSafeInteger(maxRows) && maxRows >= 0)) throw new RangeError(`maxRows must be a non-negative integer, got ${maxRows}`);
  if (maxCellBytes !== undefined && !(Number.isSafeInteger(maxCellBytes) && maxCellBytes >= 16))
    throw new RangeError(`maxCellBytes must be an integer ≥ 16, got ${maxCellBytes}`);
}
