import { VectorStoreError, VectorStoreUnavailableError } from './vector-store';

/** HTTP statuses that mean "not now" (a proxy or the server itself is unavailable), not "wrong request". */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * A Qdrant client failure as a VectorStoreError. No HTTP answer at all (connection refused or
 * reset, a timeout) or a 502/503/504 means the server is unreachable: a
 * VectorStoreUnavailableError, which the activity's retries can outlast. Any other HTTP error
 * carries the server's explanation (`data.status.error`) in the message.
 */
export function qdrantError(url: string, what: string, error: unknown): VectorStoreError {
  if (error instanceof VectorStoreError) return error;
  const status = statusOf(error);
  const unreachable = status === undefined ? transportFailure(error) : UNAVAILABLE_STATUSES.has(status) ? `HTTP ${status}` : null;
  if (unreachable) {
    return new VectorStoreUnavailableError(
      `Qdrant at ${url} is unreachable (${unreachable}) during ${what}; the step is retried and continues once Qdrant answers again`,
      { cause: error },
    );
  }
  const data = (error as { data?: { status?: { error?: unknown } } } | null)?.data;
  const detail = typeof data?.status?.error === 'string' ? data.status.error : error instanceof Error ? error.message : String(error);
  return new VectorStoreError(`qdrant ${what} failed${status ? ` with HTTP ${status}` : ''}: ${detail}`, { cause: error });
}

/**
 * Why Qdrant gave no usable answer (no connection, a dropped one, a timeout, overload), or null
 * for an error that is not about reaching the server. fetch reports a
 * refused or dropped connection as a TypeError "fetch failed" with the system error as its
 * cause; the client turns its timeout and a 429 with Retry-After into errors of its own.
 */
function transportFailure(error: unknown): string | null {
  // By name, not instanceof: fetch's errors may come from another realm (Jest's sandbox, for one).
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'QdrantClientTimeoutError' || name === 'AbortError' || name === 'TimeoutError') return 'request timed out';
  if (name === 'QdrantClientResourceExhaustedError') return 'HTTP 429, overloaded';
  if (name !== 'TypeError' || message !== 'fetch failed') return null;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : 'fetch failed';
}
