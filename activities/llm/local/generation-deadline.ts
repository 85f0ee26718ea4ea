/**
 * How long one local generation may take, from the work it has to do and the speed this model
 * has shown on this machine. A fixed deadline is wrong both ways on a CPU: a 3,000-token prompt
 * needs minutes at one thread (a fixed 120 s stopped it every time, and each retry started over),
 * while a short call that hangs should not hold a worker for minutes.
 */

/** Tokens per second, measured or assumed. */
export interface Speed {
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
}

/**
 * Assumed until a call has been measured: below what a 1.5B Q4 model does on one busy core
 * (measured 14 prompt / 4 generation tokens per second on one quiet thread), so the first call's
 * deadline errs long rather than short.
 */
export const ASSUMED_SPEED: Speed = { promptTokensPerSecond: 6, generationTokensPerSecond: 2 };

/** Room for the variance of a shared machine: the deadline is this many times the estimate... */
const SLACK_FACTOR = 2;
/** ...plus this, for loading a grammar, waiting for a batch slot and the answer's first token. */
const FIXED_MS = 15_000;

/**
 * The running speed of one loaded model: an exponentially weighted mean over its calls, so it
 * follows a machine that gets busier or quieter without one odd call swinging it.
 */
export class SpeedMeter {
  private speed: Speed | undefined;
  private readonly sums = { promptTokens: 0, promptMs: 0, generatedTokens: 0, generationMs: 0 };

  constructor(private readonly weight = 0.3) {}

  current(): Speed {
    return this.speed ?? ASSUMED_SPEED;
  }

  /** One finished call: tokens evaluated before its first output, then tokens generated, with their times. */
  /** Every call's tokens and times summed (for benchmarks: speeds over a whole run). */
  totals(): { promptTokens: number; promptMs: number; generatedTokens: number; generationMs: number } {
    return { ...this.sums };
  }

  /**
   * A generation that ran past its deadline: the machine is slower than measured (another process
   * took the cores), and nothing was timed to say by how much. Halving the speed doubles the next
   * deadline, so a retry gets twice the time instead of failing the same way until its attempts are
   * spent and the stage falls back (which also sends a replay of the run down another path).
   */
  missedDeadline(): void {
    const before = this.current();
    this.speed = { promptTokensPerSecond: before.promptTokensPerSecond / 2, generationTokensPerSecond: before.generationTokensPerSecond / 2 };
  }

  record(call: { promptTokens: number; promptMs: number; generatedTokens: number; generationMs: number }): void {
    this.sums.promptTokens += call.promptTokens;
    this.sums.promptMs += call.promptMs;
    this.sums.generatedTokens += call.generatedTokens;
    this.sums.generationMs += call.generationMs;
    // Too little work to time reliably says nothing about the speed.
    const prompt = call.promptTokens >= 32 && call.promptMs > 0 ? (call.promptTokens / call.promptMs) * 1000 : undefined;
    const generation = call.generatedTokens >= 8 && call.generationMs > 0 ? (call.generatedTokens / call.generationMs) * 1000 : undefined;
    const before = this.current();
    const blend = (old: number, measured: number | undefined) => (measured === undefined ? old : this.speed ? old + this.weight * (measured - old) : measured);
    this.speed = {
      promptTokensPerSecond: blend(before.promptTokensPerSecond, prompt),
      generationTokensPerSecond: blend(before.generationTokensPerSecond, generation),
    };
  }
}

/**
 * The deadline of a generation that must evaluate `promptTokens` and may write up to `maxTokens`,
 * never above `ceilingMs` (the configured timeout, DECODEX_LLM_TIMEOUT_MS).
 */
export function generationDeadlineMs(work: { promptTokens: number; maxTokens: number }, speed: Speed, ceilingMs: number): number {
  const estimateMs = (work.promptTokens / speed.promptTokensPerSecond + work.maxTokens / speed.generationTokensPerSecond) * 1000;
  return Math.round(Math.min(ceilingMs, FIXED_MS + SLACK_FACTOR * estimateMs));
}
