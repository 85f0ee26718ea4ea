import { LlmError } from './errors';
import type { CachedCompletion, StoredFailure } from './llm-cache';

/**
 * An answer the model gave that cannot be used: cut off (token cap, or stopped in a loop) or
 * outside the required format after its repairs. Both depend only on the prompt and the settings
 * (the cache key), so they are stored like answers: a replay of the same run fails the same step
 * the same way instead of asking the model again (a run replayed from the carry would otherwise
 * differ from the original wherever an answer was unusable). Transient failures (rate limits,
 * timeouts, connections) are never stored: asking again may well succeed.
 */
export class UnusableAnswer extends LlmError {
  constructor(
    readonly failure: StoredFailure,
    /** The model's last answer, stored beside the failure. */
    readonly lastText: string,
  ) {
    super(failure.kind, failure.message, failure.details);
  }
}

/** The cache entry of an unusable answer. */
export function storedFailure(err: UnusableAnswer, generationMs: number, createdAt: string): CachedCompletion {
  const tokens = (name: string) => (typeof err.details[name] === 'number' ? (err.details[name] as number) : 0);
  return {
    text: err.lastText,
    usage: { promptTokens: tokens('promptTokens'), completionTokens: tokens('completionTokens') },
    generationMs,
    createdAt,
    failure: err.failure,
  };
}

/**
 * The stored failure, thrown again as a cache hit: nothing spent now, what it cost when it was
 * generated in `cachedPromptTokens`/`cachedLatencyMs` (as a hit's record says), so a replayed run
 * counts the call as cached.
 */
export function replayedFailure(entry: CachedCompletion, failure: StoredFailure): LlmError {
  const details: Record<string, unknown> = { ...failure.details };
  delete details.reusedPromptTokens;
  return new LlmError(failure.kind, failure.message, {
    ...details,
    promptTokens: 0,
    completionTokens: 0,
    cacheHit: true,
    cachedPromptTokens: entry.usage.promptTokens,
    ...(entry.generationMs !== undefined ? { cachedLatencyMs: entry.generationMs } : {}),
  });
}
