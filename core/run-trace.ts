/**
 * What every workflow reports of its run: the trace (one event per step) and the errors it names.
 * Every stage records into these, so this module imports nothing.
 */

export interface RunError {
  kind: string;
  message: string;
}

/** One step of a run, as the `trace` query and the result show it (the same for every workflow). */
export interface TraceEvent {
  /** The paper's stage (linking, notes, judging, generation, correction, selection, ...) or a preparation phase. */
  stage: string;
  /** The step, usually named after its activity. */
  step: string;
  /** What the step does. */
  summary: string;
  /** One line on what it produced. */
  outcome?: string;
  startedAt: string;
  elapsedMs: number;
  ok: boolean;
  /** Why the step did not run (a budget, an ablation, a missing knowledge base). */
  skipped?: string;
  detail?: Record<string, unknown>;
  /** The LLM calls the step made. */
  usage?: { calls: number; cacheHits: number; tokens: number };
}
