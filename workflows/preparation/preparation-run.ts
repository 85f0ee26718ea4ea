import { proxyActivities, setHandler, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { ExplorationLlmActivities, PreparationActivities } from '../../activities/preparation/preparation-activities';
import type { TraceEvent } from '../../core/run-trace';
import { RunBudget } from '../../core/budget';
import { resolvePreparationConfig, resolvePreparationLimits, type PreparationConfig, type PreparationLimits } from '../../core/preparation/preparation-config';
import type { PrepareDatabaseInput, PrepareDatabaseResult } from '../../core/preparation/preparation-types';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import type { RunUsage } from '../../core/usage';
import { JobProgress } from '../kit/job-progress';
import { StepRunner } from '../kit/step-runner';
import { progressQuery, traceQuery, type JobStepProgress } from '../queries';

/** The phases of a preparation, in order, with what each does (the trace's phase summaries). */
export const PHASE_SUMMARIES = {
  inspect: 'fingerprint, schema and stored artifacts',
  profile: 'column profiler (§3.1.1): one profile per column',
  index: 'index generator (§3.1.2): profile, value and lexical indices',
  candidates: 'explorator step 1: candidate pairs by name and profile similarity',
  triage: 'explorator step 2: LLM triage, three prompts per pair, majority vote',
  statistics: 'explorator step 3: overlap, coverage, fan-out, agreement by SQL',
  notes: 'explorator step 4: one note per family of confusable columns',
  publish: 'manifest, then removal of older versions',
};
export type Phase = keyof typeof PHASE_SUMMARIES;

/** The trace's stage of a phase's summary event (its steps carry the phase's name as their stage). */
export const PREPARATION_STAGE = 'preparation';

/** What a run hands to the next one when the history grows long (continue-as-new). */
export interface PreparationCarry {
  usage: RunUsage;
  steps: TraceEvent[];
  startedAt: number;
  activityMs: PrepareDatabaseResult['activityMs'];
}

/** Failures a retry cannot fix. */
const NON_RETRYABLE = ['DatabaseUnavailable', 'ArtifactMissing', 'DocumentationUnreadable', 'ReadOnlyViolation'];

/** One run of `prepareDatabase`: its settings, activities, budget, step runner and progress, shared by its phases. */
export interface PreparationRun {
  input: PrepareDatabaseInput;
  config: PreparationConfig;
  limits: PreparationLimits;
  offline: ActivityInterfaceFor<PreparationActivities>;
  llm: ActivityInterfaceFor<ExplorationLlmActivities>;
  budget: RunBudget;
  runner: StepRunner;
  progress: JobProgress<JobStepProgress>;
  /** Time spent inside the heavy activities, for bench:prepare. */
  activityMs: PrepareDatabaseResult['activityMs'];
  startedAt: number;
}

export function startPreparationRun(input: PrepareDatabaseInput, carry?: PreparationCarry): PreparationRun {
  const limits = resolvePreparationLimits(input.limits);
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = proxyActivities<PreparationActivities>({
    taskQueue: taskQueue('offline', prefix),
    startToCloseTimeout: limits.activityTimeoutMs,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: { maximumAttempts: limits.maxAttempts, nonRetryableErrorTypes: NON_RETRYABLE },
  });
  const llm = proxyActivities<ExplorationLlmActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: limits.llmActivityTimeoutMs,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: { maximumAttempts: limits.maxAttempts, initialInterval: '2s', backoffCoefficient: 2 },
  });
  const startedAt = carry?.startedAt ?? Date.now();
  const budget = new RunBudget({ maxLlmCalls: limits.maxLlmCalls, maxTokens: limits.maxTokens }, () => Date.now(), { usage: carry?.usage, startedAt });
  // One runner per run: its trace continues the steps of earlier runs of a continued chain.
  const runner = new StepRunner(budget, Object.keys(PHASE_SUMMARIES).length);
  runner.trace.push(...(carry?.steps ?? []));
  setHandler(traceQuery, () => runner.trace);
  const progress = new JobProgress<JobStepProgress>(
    progressQuery,
    { step: 'inspect', done: 0, total: 1 },
    (p) => `**${p.step}** ${p.done}/${p.total}${p.detail ? `: ${p.detail}` : ''}`,
  );
  return {
    input,
    config: resolvePreparationConfig(input.config),
    limits,
    offline,
    llm,
    budget,
    runner,
    progress,
    // Spread over zeros: a run carried over from before a counter existed starts that counter at 0.
    activityMs: { profiling: 0, valueIndex: 0, profileIndex: 0, ...carry?.activityMs },
    startedAt,
  };
}

/** Runs one phase as a group of steps: its progress line first, then one timed trace event for the whole phase. */
export function runPhase<T>(
  run: PreparationRun,
  phase: Phase,
  plan: { done?: number; total: number; detail: string },
  body: () => Promise<T>,
  outcome: (result: T) => string,
): Promise<T> {
  run.progress.update({ step: phase, done: plan.done ?? 0, total: plan.total, detail: plan.detail });
  return run.runner.group({ stage: PREPARATION_STAGE, name: phase, summary: PHASE_SUMMARIES[phase] }, body, (r) => ({ outcome: outcome(r) }));
}

/** A batch in an activity summary or the progress line: its first names, and how many more. */
export function describeBatch(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}
