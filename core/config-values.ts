/**
 * A positive integer from an env var (a string) or a config file (a number); `source` names where
 * it came from. `fail` makes the error (the LLM configuration's is a non-retryable config error).
 */
export function parsePositiveInteger(raw: unknown, source: string, fail: (message: string) => Error = (message) => new Error(message)): number {
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
  throw fail(`${source} must be a positive integer, got ${JSON.stringify(raw)}`);
}
