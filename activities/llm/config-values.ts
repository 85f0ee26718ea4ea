import { LlmError } from './errors';

/** A mistake in decodex's own LLM configuration: never retried, the message names what to set. */
export function configError(message: string): LlmError {
  return new LlmError('config', message);
}

/** A positive integer from an env var (a string) or a config file (a number); `source` names where it came from. */
export function parsePositiveInteger(raw: unknown, source: string): number {
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
  throw configError(`${source} must be a positive integer, got ${JSON.stringify(raw)}`);
}
