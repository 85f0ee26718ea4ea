import { addCall, emptyUsage, mergeUsage, totalTokens, type LlmCallUsage, type RunUsage } from './usage';

/**
 * The one budget of every decodex run (a question, a preparation, a mining job). It lives in
 * workflow code, so it is pure and deterministic: `now` is the workflow clock.
 *
 * Counting is the same everywhere:
 * - a *paid* call is an LLM call that was not answered from the cache; cache hits are free, so
 *   a rerun that replays cached answers gets past the same point again at no cost;
 * - tokens are the prompt + completion tokens the provider billed (a cache hit bills none);
 * - repairs are SQL revisions and topology refinements, counted by the step that makes one;
 * - seconds are wall-clock seconds since the run (or its first continued run) started.
 *
 * A step asks before it starts (`refuse`), reserving its calls while in flight so that steps
 * running in parallel cannot overshoot together. Once refused, `stoppedBy` says which budget
 * ended the run, and the run finishes with its best answer so far.
 */
export interface BudgetLimits {
  maxLlmCalls: number;
  maxTokens: number;
  /** Absent: no time limit (e.g. a preparation bounded by its activities' own timeouts). */
  maxSeconds?: number;
  /** Absent: no repair limit. */
  maxRepairs?: number;
  /** Absent: no dollar limit. Needs the budget's `cost` (usage priced by model). */
  maxCostUsd?: number;
}

export type BudgetKind = 'call_budget' | 'token_budget' | 'cost_budget' | 'time_budget' | 'repair_budget';

export interface BudgetStop {
  kind: BudgetKind;
  message: string;
}

/** What a continued run (continue-as-new) carries over so the budget keeps counting. */
export interface BudgetState {
  usage: RunUsage;
  repairs: number;
  startedAt: number;
}

export class RunBudget {
  usage: RunUsage;
  repairs: number;
  readonly startedAt: number;
  stoppedBy: BudgetStop | undefined;
  private reserved = 0;

  constructor(
    readonly limits: BudgetLimits,
    private readonly now: () => number,
    state?: Partial<BudgetState>,
    /** Dollars of a usage (null: unpriced), for maxCostUsd. */
    private readonly cost?: (usage: RunUsage) => number | null,
  ) {
    if (limits.maxCostUsd !== undefined && !cost) throw new Error('a cost budget needs a way to price usage');
    this.usage = state?.usage ?? emptyUsage();
    this.repairs = state?.repairs ?? 0;
    this.startedAt = state?.startedAt ?? now();
  }

  get paidCalls(): number {
    return this.usage.llmCalls - this.usage.cacheHits;
  }

  state(): BudgetState {
    return { usage: this.usage, repairs: this.repairs, startedAt: this.startedAt };
  }

  /** Why `calls` more paid calls may not start now, or undefined when they may. Remembers a refusal. */
  refuse(calls: number): BudgetStop | undefined {
    const stop = this.check(calls);
    if (stop) this.stoppedBy ??= stop;
    return stop;
  }

  private check(calls: number): BudgetStop | undefined {
    const { maxLlmCalls, maxTokens, maxSeconds } = this.limits;
    if (calls > 0 && this.paidCalls + this.reserved + calls > maxLlmCalls) return { kind: 'call_budget', message: `LLM call budget of ${maxLlmCalls} reached` };
    if (calls > 0 && totalTokens(this.usage) >= maxTokens) return { kind: 'token_budget', message: `token budget of ${maxTokens} reached` };
    const { maxCostUsd } = this.limits;
    if (calls > 0 && maxCostUsd !== undefined && (this.cost!(this.usage) ?? 0) >= maxCostUsd)
      return { kind: 'cost_budget', message: `cost budget of $${maxCostUsd} reached` };
    if (maxSeconds !== undefined && (this.now() - this.startedAt) / 1000 >= maxSeconds)
      return { kind: 'time_budget', message: `time budget of ${maxSeconds} s reached` };
    return undefined;
  }

  /** Milliseconds left of the time budget (never below 0); undefined without one. */
  remainingMs(): number | undefined {
    const { maxSeconds } = this.limits;
    return maxSeconds === undefined ? undefined : Math.max(0, maxSeconds * 1000 - (this.now() - this.startedAt));
  }

  /** Reserves calls for a step in flight; the returned function releases them. */
  reserve(calls: number): () => void {
    this.reserved += calls;
    let released = false;
    return () => {
      if (!released) this.reserved -= calls;
      released = true;
    };
  }

  record(calls: LlmCallUsage[]): void {
    for (const call of calls) this.usage = addCall(this.usage, call);
  }

  /** Adds what a child run (e.g. a preparation started for a first question) spent. */
  recordRun(usage: RunUsage): void {
    this.usage = mergeUsage(this.usage, usage);
  }

  /** Takes one repair if one is left; false (and `stoppedBy`) when the repair budget is spent. */
  takeRepair(): boolean {
    const max = this.limits.maxRepairs;
    if (max !== undefined && this.repairs >= max) {
      this.stoppedBy ??= { kind: 'repair_budget', message: `repair budget of ${max} reached` };
      return false;
    }
    this.repairs++;
    return true;
  }
}
