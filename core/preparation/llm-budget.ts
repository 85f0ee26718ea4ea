import { addCall, emptyUsage, totalTokens, type LlmCallUsage, type RunUsage } from '../usage';

/**
 * The model budget of one preparation run (workflow code: pure and deterministic). A step asks
 * before it calls (`spend`), reserving its calls while in flight so parallel steps cannot
 * overshoot together; once refused, `exhausted` says which budget ran out. Answers from the LLM
 * cache cost nothing and do not count, so a run that continues one stopped by its budget gets
 * past the same point again for free.
 */
export class LlmBudget {
  private reserved = 0;
  exhausted: string | undefined;

  constructor(
    private readonly maxCalls: number,
    private readonly maxTokens: number,
    public usage: RunUsage = emptyUsage(),
  ) {}

  /** Runs `call` when `calls` more paid calls fit, and records what it used; null when they do not. */
  async spend<T>(calls: number, call: () => Promise<T>, usageOf: (result: T) => LlmCallUsage[]): Promise<T | null> {
    if (this.usage.llmCalls - this.usage.cacheHits + this.reserved + calls > this.maxCalls) {
      this.exhausted = `LLM call budget of ${this.maxCalls} reached`;
      return null;
    }
    if (totalTokens(this.usage) >= this.maxTokens) {
      this.exhausted = `token budget of ${this.maxTokens} reached`;
      return null;
    }
    this.reserved += calls;
    try {
      const result = await call();
      for (const used of usageOf(result)) this.usage = addCall(this.usage, used);
      return result;
    } finally {
      this.reserved -= calls;
    }
  }
}
