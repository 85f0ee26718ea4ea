import { proxyActivities, setHandler, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { QuestionLlmActivities, QuestionOnlineActivities } from '../../activities/question-activities';
import type { AnswerQuestionInput } from '../../core/answer-question-types';
import type { QuestionLimits } from '../../core/question-limits';
import { RunBudget } from '../../core/budget';
import type { PipelineConfig } from '../../core/pipeline/pipeline-config';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import { dagQuery, progressQuery, traceQuery } from '../queries';
import { StepRunner } from '../kit/step-runner';

/** Failures no retry can fix: a missing database, a broken configuration, a refused key. */
const NON_RETRYABLE = ['DatabaseUnavailable', 'InvalidConfiguration', 'KnowledgeMissing'];

/**
 * The services every stage of one question run uses: the question as asked, the resolved
 * configuration and limits, the budget and step runner, the activity proxies by task queue. They
 * are not the run's state: a stage takes what it reads of that as named inputs and returns what it
 * produces, and only the router (answer-question.ts) records it (question-run.ts).
 */
export interface StageKit {
  input: AnswerQuestionInput;
  config: PipelineConfig;
  limits: QuestionLimits;
  budget: RunBudget;
  runner: StepRunner;
  online: ActivityInterfaceFor<QuestionOnlineActivities>;
  llm: ActivityInterfaceFor<QuestionLlmActivities>;
}

/** Stages the progress bar counts, from the configuration (so "3 of 7" means what it says). */
export function plannedStages(config: PipelineConfig): number {
  // open + linking + generation + answer, and each optional stage that is switched on.
  return 4 + [config.notes.enabled, config.judging.enabled, config.correction.enabled, config.selection.enabled].filter(Boolean).length;
}

/** The kit of one run, with the queries that read it (trace, progress, and the DAG until one exists). */
export function startStageKit(input: AnswerQuestionInput, config: PipelineConfig, limits: QuestionLimits): StageKit {
  const budget = new RunBudget(limits.budget, () => Date.now());
  const runner = new StepRunner(budget, plannedStages(config));
  setHandler(traceQuery, () => runner.trace);
  // Null until a DAG exists (the complex route's DagState replaces this handler), so a run on the
  // direct path answers the query instead of failing it for want of a handler.
  setHandler(dagQuery, () => null);
  setHandler(progressQuery, () => {
    const p = runner.progress();
    return { step: `${p.stage} › ${p.step}`, done: p.done, total: p.total };
  });
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  // Typed by the factories the workers register (activities/question-activities.ts): database work on
  // `online`, model calls on `llm`.
  const online = proxyActivities<QuestionOnlineActivities>({
    taskQueue: taskQueue('online', prefix),
    startToCloseTimeout: limits.sqlTimeoutMs + 30_000,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE },
  });
  const llm = proxyActivities<QuestionLlmActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: limits.llmAttemptTimeoutMs,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: {
      maximumAttempts: limits.llmRetry.maximumAttempts,
      initialInterval: limits.llmRetry.initialIntervalMs,
      backoffCoefficient: limits.llmRetry.backoffCoefficient,
      nonRetryableErrorTypes: NON_RETRYABLE,
    },
  });
  return { input, config, limits, budget, runner, online, llm };
}
