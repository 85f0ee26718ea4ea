import { proxyActivities, setHandler, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { QuestionLlmActivities, QuestionOnlineActivities } from '../../activities/question-activities';
import type { QuestionContext } from '../../core/question/question-context';
import type { AnswerQuestionInput, Judgement, Route } from '../../core/answer-question-types';
import type { QuestionLimits } from '../../core/question-limits';
import { RunBudget } from '../../core/budget';
import type { DagReport } from '../../core/dag/dag-report';
import type { PipelineConfig } from '../../core/pipeline/pipeline-config';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import { dagQuery, progressQuery, traceQuery } from '../queries';
import { StepRunner } from '../kit/step-runner';
import type { WorkingCandidate } from './working-candidate';

/** Failures no retry can fix: a missing database, a broken configuration, a refused key. */
const NON_RETRYABLE = ['DatabaseUnavailable', 'InvalidConfiguration', 'KnowledgeMissing'];

/**
 * Everything one question run shares between its stages: the resolved configuration and
 * limits, the budget and step runner (the stage kit), the activity proxies by task queue, and
 * what the stages decided so far. Stages read and extend it; `answerQuestion` only routes.
 */
export interface QuestionRun {
  input: AnswerQuestionInput;
  config: PipelineConfig;
  limits: QuestionLimits;
  budget: RunBudget;
  runner: StepRunner;
  online: ActivityInterfaceFor<QuestionOnlineActivities>;
  llm: ActivityInterfaceFor<QuestionLlmActivities>;
  /** What every LLM step is told; grows stage by stage (focus, grounding, notes). */
  ctx: QuestionContext;
  route: Route;
  judgement?: Judgement;
  /** The complex route's sub-question DAG (live: the `dag` query reads the same object). */
  dag?: DagReport;
  /** Whether the complex route ran (it runs at most once, even when it fell back to the direct path). */
  decomposed: boolean;
  /** DexterSQL's preliminary SQLs: the best answer there is if a budget ends the run before generation. */
  drafts: { view: string; sql: string }[];
  candidates: WorkingCandidate[];
  knowledge: { fewShotExamples: number; correctionRules: number };
}

/** Stages the progress bar counts, from the configuration (so "3 of 7" means what it says). */
export function plannedStages(config: PipelineConfig): number {
  // open + linking + generation + answer, and each optional stage that is switched on.
  return 4 + [config.notes.enabled, config.judging.enabled, config.correction.enabled, config.selection.enabled].filter(Boolean).length;
}

export function startQuestionRun(input: AnswerQuestionInput, config: PipelineConfig, limits: QuestionLimits): QuestionRun {
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
  return {
    input,
    config,
    limits,
    budget,
    runner,
    online,
    llm,
    ctx: {
      question: input.question,
      evidence: input.evidence,
      database: input.database,
      dialect: 'sqlite',
      prepared: null,
      focus: null,
      grounding: [],
      notes: [],
      ...(input.withholdExamplesOf ? { withholdExamplesOf: input.withholdExamplesOf } : {}),
    },
    route: 'direct',
    decomposed: false,
    drafts: [],
    candidates: [],
    knowledge: { fewShotExamples: 0, correctionRules: 0 },
  };
}
