/**
 * A failed embeddings call. `retryable` tells a Temporal retry policy whether trying again can
 * help (rate limits, 5xx, timeouts) or cannot (bad key, unknown model, malformed response).
 */
export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}
