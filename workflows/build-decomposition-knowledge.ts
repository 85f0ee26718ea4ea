import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { DecompositionKbActivities } from '../activities/knowledge/decomposition-kb-activities';
import { RunBudget } from '../core/budget';
import type { BenchmarkQuestion } from '../core/datasets/benchmark-question';
import type { BuildDecompositionKbInput, DecompositionKbProgress } from '../core/knowledge/decomposition-kb-types';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { totalTokens } from '../core/usage';
import { JobProgress } from './kit/job-progress';
import { runQuestionWindow } from './kit/question-window';
import { failureMessage, StepRunner } from './kit/step-runner';
import { storeDecomposition } from './knowledge/store-decomposition';
import { decompositionKbProgressQuery, traceQuery } from './queries';

const PAGE = 25;
const STAGE = 'knowledge';

export interface BuildDecompositionKbResult {
  status: 'completed' | 'budget_exhausted';
  progress: DecompositionKbProgress;
  stoppedBy?: string;
}

/**
 * Builds DecoSearch's decomposition knowledge base (§3.5) from training questions: each one is
 * answered on the complex route and its DAG stored when the answer is correct
 * (workflows/knowledge/store-decomposition.ts). Resumable and budgeted like `mineRules`: the same
 * question window, records that mark questions done, the whole job's spending counted from
 * them, continue-as-new between windows.
 */
export async function buildDecompositionKnowledge(
  input: BuildDecompositionKbInput,
  state?: { runs: number; nextIndex: number },
): Promise<BuildDecompositionKbResult> {
  const offline = proxyActivities<DecompositionKbActivities>({
    taskQueue: taskQueue('offline', queuePrefixOf(workflowInfo().taskQueue)),
    startToCloseTimeout: 5 * 60_000 + 4 * input.sqlTimeoutMs,
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['JobIdTaken', 'DatasetUnavailable'] },
  });
  const runs = (state?.runs ?? 0) + 1;
  const budget = new RunBudget(input.budget, () => Date.now());
  const runner = new StepRunner(budget, 1);
  setHandler(traceQuery, () => runner.trace);
  const progress = new JobProgress<DecompositionKbProgress>(
    decompositionKbProgressQuery,
    { phase: 'sampling', total: 0, done: 0, inFlight: 0, stored: 0, wrong: 0, withoutDag: 0, unusable: 0, failedQuestions: 0, llmCalls: 0, tokens: 0, runs },
    (p) =>
      `**${p.phase}**: ${p.done}/${p.total} questions (${p.inFlight} in flight); ${p.stored} decompositions stored, ` +
      `${p.wrong} wrong, ${p.withoutDag} without a DAG, ${p.unusable} right but no example; ${p.llmCalls} paid LLM calls, ${p.tokens} tokens` +
      (p.stoppedBy ? `; **stopped**: ${p.stoppedBy}` : ''),
  );
  const show = (patch: Partial<DecompositionKbProgress>) =>
    progress.update({ ...patch, llmCalls: budget.paidCalls, tokens: totalTokens(budget.usage), stoppedBy: budget.stoppedBy?.message });
  // The job's budget starts from what the stored records say was spent.
  const status = await runner.step({ stage: STAGE, name: 'openDecompositionJob', summary: `sample ${input.sample.size} questions of ${input.dataset}` }, (o) =>
    offline.openDecompositionJob.executeWithOptions(o, [input]),
  );
  budget.recordRun(status.usage);
  show({
    phase: 'building',
    total: status.total,
    done: status.done,
    stored: status.stored,
    wrong: status.wrong,
    withoutDag: status.withoutDag,
    unusable: status.unusable,
  });

  async function build(question: BenchmarkQuestion): Promise<void> {
    try {
      const built = await storeDecomposition(input, runner, offline, question);
      budget.recordRun(built.usage);
      const p = progress.state;
      show({
        done: p.done + 1,
        stored: p.stored + (built.stored ? 1 : 0),
        wrong: p.wrong + (built.hasDag && !built.stored && !built.unusable ? 1 : 0),
        withoutDag: p.withoutDag + (built.hasDag ? 0 : 1),
        unusable: p.unusable + (built.unusable ? 1 : 0),
      });
    } catch (err) {
      show({ failedQuestions: progress.state.failedQuestions + 1 });
      runner.note(STAGE, 'answerQuestion', `question ${question.index} failed`, { outcome: failureMessage(err) });
    }
  }

  const window = await runQuestionWindow({
    total: status.total,
    nextIndex: state?.nextIndex ?? 0,
    concurrency: input.concurrency,
    perRun: input.questionsPerRun,
    fetch: (from) =>
      runner.step({ stage: STAGE, name: 'nextDecompositionQuestions', summary: `unfinished questions from #${from}` }, (o) =>
        offline.nextDecompositionQuestions.executeWithOptions(o, [{ jobId: input.jobId, from, count: PAGE }]),
      ),
    budget,
    handle: build,
    onInFlight: (inFlight) => show({ inFlight }),
  });
  if (budget.stoppedBy) {
    show({ phase: 'stopped' });
    return { status: 'budget_exhausted', progress: { ...progress.state }, stoppedBy: budget.stoppedBy.message };
  }
  if (window.resumeFrom !== null) return continueAsNew<typeof buildDecompositionKnowledge>(input, { runs, nextIndex: window.resumeFrom });
  show({ phase: 'done' });
  return { status: 'completed', progress: { ...progress.state } };
}
