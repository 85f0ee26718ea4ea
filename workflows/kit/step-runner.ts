import { ApplicationFailure, setCurrentDetails } from '@temporalio/workflow';
import type { TraceEvent } from '../../core/run-trace';
import type { RunBudget } from '../../core/budget';
import { isRunUsage, type LlmCallUsage, type RunUsage } from '../../core/usage';

/** What the `progress` query answers: the stage running now and how many of the planned stages are done. */
export interface Progress {
  stage: string;
  step: string;
  done: number;
  total: number;
}

/** What a step passes to `executeWithOptions`. */
export interface StepOptions {
  summary: string;
  /** Model steps under a time budget: all attempts of the activity end within the time left. */
  scheduleToCloseTimeout?: number;
}

/**
 * Below this, a model step is not given the time left as its deadline: the step was admitted
 * by the budget gate, and an activity with a deadline of a few milliseconds cannot even start.
 */
const MIN_STEP_DEADLINE_MS = 5_000;

export interface StepSpec {
  /** The paper's stage this step belongs to (linking, judging, generation, ...). */
  stage: string;
  /** The step's name, usually the activity's (the Web UI's event list shows the same name). */
  name: string;
  /** What the step does, in a few words: the activity summary in the Web UI and the trace. */
  summary: string;
  /** Paid LLM calls the step may make; > 0 puts it behind the budget gate. */
  llmCalls?: number;
}

type Describe<T> = (result: T) => { outcome?: string; detail?: Record<string, unknown> };

/**
 * What a paid step returns: the usage of the model calls it made (an activity: one call or a
 * list) or of a whole run (a child workflow). The type makes a paid step that forgets its usage
 * a compile error rather than a step that spends nothing against the budget.
 */
export type PaidResult = { usage: LlmCallUsage | LlmCallUsage[] | RunUsage };

/**
 * The one way a workflow runs a step (the workflow kit, the same for every workflow):
 * - the budget gate: a step that would call a model past a budget is not started (null);
 * - live visibility: current details and the `progress` query say which stage and step run;
 * - the activity summary: `run` receives `{ summary }` to pass to `executeWithOptions`;
 * - the deadline: a model step also receives `scheduleToCloseTimeout`, the time the run has left,
 *   so neither a slow attempt nor its retries run past the question's time budget;
 * - usage: a paid step's result carries the usage of its model calls (`PaidResult`), added to the
 *   run's budget; other steps make no model call and spend nothing;
 * - the trace: one event per step with timing, outcome and usage; a failure is recorded with
 *   its innermost message and rethrown, never swallowed.
 * Pure workflow code: it is deterministic and uses only the workflow clock.
 */
export class StepRunner {
  readonly trace: TraceEvent[] = [];
  private current: Progress;

  constructor(
    readonly budget: RunBudget,
    totalStages: number,
  ) {
    this.current = { stage: 'starting', step: '', done: 0, total: totalStages };
  }

  progress(): Progress {
    return { ...this.current };
  }

  /** A stage the run decided to add on the way (the complex route): the total grows by one. */
  planStage(): void {
    this.current = { ...this.current, total: this.current.total + 1 };
  }

  /** Marks a stage as finished (progress counts stages, whose number the configuration fixes). */
  stageDone(stage: string): void {
    this.current = { ...this.current, stage, step: 'done', done: Math.min(this.current.done + 1, this.current.total) };
  }

  /** Records a decision that needed no activity: a skipped path, a fallback, a routing verdict. */
  note(stage: string, name: string, summary: string, extra: Pick<TraceEvent, 'skipped' | 'detail' | 'outcome'> = {}): void {
    this.trace.push({ stage, step: name, summary, startedAt: new Date(Date.now()).toISOString(), elapsedMs: 0, ok: true, ...extra });
  }

  /** A step that makes no LLM call (database work, retrieval): never refused by the budget, spends nothing. */
  async step<T>(spec: Omit<StepSpec, 'llmCalls'>, run: (options: StepOptions) => Promise<T>, describe?: Describe<T>): Promise<T> {
    return (await this.run({ ...spec, llmCalls: 0 }, run, () => undefined, describe)) as T;
  }

  /** A step that calls a model: it runs only when `llmCalls` more paid calls fit the budget, else null. */
  async paidStep<T extends PaidResult>(
    spec: StepSpec & { llmCalls: number },
    run: (options: StepOptions) => Promise<T>,
    describe?: Describe<T>,
  ): Promise<T | null> {
    return this.run(spec, run, (result) => result.usage, describe);
  }

  /**
   * A stage made of many steps (a preparation phase: one step per batch of tables or per pair):
   * one more trace event for the whole, timed from its start to its last step, with the outcome
   * `describe` gives. Its steps gate, time and record their own usage; the group only marks the
   * stage done when it ends, and records a failure before rethrowing it.
   */
  async group<T>(spec: Omit<StepSpec, 'llmCalls'>, body: () => Promise<T>, describe?: Describe<T>): Promise<T> {
    const event = this.eventOf(spec, Date.now());
    this.current = { ...this.current, stage: spec.stage, step: spec.name };
    try {
      const result = await body();
      this.trace.push(event(describe?.(result) ?? {}));
      return result;
    } catch (err) {
      this.trace.push(event({ ok: false, detail: { error: failureMessage(err) } }));
      throw err;
    } finally {
      this.stageDone(spec.name);
    }
  }

  /** The trace event of a step that started at `t0`, completed by what is known when it ends. */
  private eventOf(spec: Omit<StepSpec, 'llmCalls'>, t0: number): (rest: Partial<TraceEvent>) => TraceEvent {
    return (rest) => ({
      stage: spec.stage,
      step: spec.name,
      summary: spec.summary,
      startedAt: new Date(t0).toISOString(),
      elapsedMs: Date.now() - t0,
      ok: true,
      ...rest,
    });
  }

  private async run<T>(
    spec: StepSpec,
    run: (options: StepOptions) => Promise<T>,
    usageOf: (result: T) => PaidResult['usage'] | undefined,
    describe?: Describe<T>,
  ): Promise<T | null> {
    const calls = spec.llmCalls ?? 0;
    const event = this.eventOf(spec, Date.now());
    // Only model calls are gated: database steps are cheap, and the final answer must still run.
    const refused = calls > 0 ? this.budget.refuse(calls) : undefined;
    if (refused) {
      this.trace.push(event({ ok: false, skipped: refused.message }));
      return null;
    }
    this.current = { ...this.current, stage: spec.stage, step: spec.name };
    setCurrentDetails(`**${spec.stage} › ${spec.name}** (stage ${this.current.done + 1} of ${this.current.total}): ${spec.summary}`);
    const release = this.budget.reserve(calls);
    try {
      const remaining = calls > 0 ? this.budget.remainingMs() : undefined;
      const deadline = remaining === undefined ? {} : { scheduleToCloseTimeout: Math.max(MIN_STEP_DEADLINE_MS, remaining) };
      const result = await run({ summary: spec.summary, ...deadline });
      const reported = usageOf(result);
      // A child workflow reports a whole run's usage; an activity, the calls it made.
      const used = isRunUsage(reported) ? [] : callsIn(reported);
      if (isRunUsage(reported)) this.budget.recordRun(reported);
      else this.budget.record(used);
      const described = describe?.(result) ?? {};
      this.trace.push(event({ ...described, ...(used.length ? { usage: summarizeUsage(used) } : {}) }));
      return result;
    } catch (err) {
      // A model call that failed after answering (cut off, malformed) still spent its tokens.
      const spent = failedCallUsage(err);
      if (spent) this.budget.record([spent]);
      // A model step cut off by the question's deadline ends the run out of time, and the result says so.
      if (calls > 0 && this.budget.remainingMs() === 0) this.budget.refuse(0);
      this.trace.push(
        event({
          ok: false,
          detail: { error: failureMessage(err), ...(failureType(err) ? { type: failureType(err) } : {}) },
          ...(spent ? { usage: summarizeUsage([spent]) } : {}),
        }),
      );
      throw err;
    } finally {
      release();
    }
  }
}

/** What a step returns may carry the usage of the LLM calls it made (one or a list); the runner records it. */
function callsIn(usage: LlmCallUsage | LlmCallUsage[] | undefined): LlmCallUsage[] {
  if (!usage) return [];
  return Array.isArray(usage) ? usage : [usage];
}

function summarizeUsage(calls: LlmCallUsage[]): NonNullable<TraceEvent['usage']> {
  return {
    calls: calls.length,
    cacheHits: calls.filter((c) => c.cacheHit).length,
    tokens: calls.reduce((n, c) => n + c.promptTokens + c.completionTokens, 0),
  };
}

/** The chain of causes, outermost first: an activity or child failure wraps what really happened. */
function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [err];
  for (let e = err; e instanceof Error && e.cause; e = e.cause) chain.push(e.cause);
  return chain;
}

/** The tokens a failed model call reports in its failure's details (role, model, tokens), as a call's usage. */
export function failedCallUsage(err: unknown): LlmCallUsage | undefined {
  const application = causeChain(err).filter((e): e is ApplicationFailure => e instanceof ApplicationFailure);
  const details = application.at(-1)?.details?.[0] as Partial<LlmCallUsage> | undefined;
  if (!details || typeof details.promptTokens !== 'number' || typeof details.completionTokens !== 'number') return undefined;
  if (typeof details.role !== 'string' || typeof details.model !== 'string') return undefined;
  // A failure replayed from the LLM cache (activities/llm/cached-failure.ts) spent nothing now.
  const hit = details.cacheHit === true;
  return {
    role: details.role,
    model: details.model,
    promptTokens: details.promptTokens,
    completionTokens: details.completionTokens,
    latencyMs: 0,
    cacheHit: hit,
    ...(hit && typeof details.cachedPromptTokens === 'number' ? { cachedPromptTokens: details.cachedPromptTokens } : {}),
    ...(hit && typeof details.cachedLatencyMs === 'number' ? { cachedLatencyMs: details.cachedLatencyMs } : {}),
  };
}

/** The innermost failure's message, so "activity task failed" never hides what went wrong. */
export function failureMessage(err: unknown): string {
  const e = causeChain(err).at(-1);
  return e instanceof Error ? e.message : String(e);
}

/** The innermost ApplicationFailure's type (e.g. `DatabaseUnavailable`, `LlmAuth`), when it has one. */
export function failureType(err: unknown): string | undefined {
  const application = causeChain(err).filter((e): e is ApplicationFailure => e instanceof ApplicationFailure && !!e.type);
  return application.at(-1)?.type ?? undefined;
}
