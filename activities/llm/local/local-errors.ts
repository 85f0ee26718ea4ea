import { LlmError } from '../errors';

export interface LocalCallContext {
  /** The model's file name, for messages. */
  model: string;
  timeoutMs: number;
  /** True when the call's own deadline fired. */
  timedOut: boolean;
}

/** What went wrong in a local generation, as an LlmError whose message says what to change. */
export function classifyLocalError(err: unknown, ctx: LocalCallContext): LlmError {
  if (err instanceof LlmError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (ctx.timedOut) {
    return new LlmError(
      'timeout',
      `the local model ${ctx.model} did not finish within ${ctx.timeoutMs} ms; raise DECODEX_LLM_TIMEOUT_MS, lower DECODEX_LLM_MAX_TOKENS or use a smaller model`,
      { timeoutMs: ctx.timeoutMs },
    );
  }
  // The same prompt will not fit on a retry either.
  if (/context size|too long|too small/i.test(message)) {
    return new LlmError('bad_request', `the prompt does not fit the local model's context (${message}); raise DECODEX_LLM_LOCAL_CONTEXT_SIZE`);
  }
  // Anything else (a disposed model during shutdown, a native failure) may not repeat in another attempt.
  return new LlmError('server', `the local model ${ctx.model} failed: ${message}`);
}
