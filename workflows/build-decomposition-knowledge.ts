import { continueAsNew, executeChild, proxyActivities, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import type { DecompositionKbActivities } from '../activities/knowledge/decomposition-kb-activities';
import { RunBudget } from '../core/budget';
import type { BenchmarkQuestion } from '../core/datasets/benchmark-question';
import { databaseLabel } from '../core/database-label';
import type { BuildDecompositionKbInput, DecompositionKbProgress } from '../core/knowledge/decomposition-kb-types';
import { DATABASE } from '../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { totalTokens } from '../core/usage';
import type { answerQuestion } from './answer-question';
import { awaitAnswer } from '../core/unanswered-run';
import { runQuestionWindow } from './kit/question-window';
import { failureMessage } from './kit/step-runner';
import { decompositionKbProgressQuery } from './queries';

const PAGE = 25;

export interface BuildDecompositionKbResult {
  status: 'completed' | 'budget_exhausted';
  progress: DecompositionKbProgress;
  stoppedBy?: string;
}

/**
 * Builds DecoSearch's decomposition knowledge base (§3.5) from training questions: each one is
 * answered by an `answerQuestion` child forced onto the complex route
 * (`pipeline.decomposition.always`), then judged against its gold SQL; the DAG that produced a
 * correct answer (`result.dag.final`) is stored as an example the decomposer retrieves (k = 3).
 * Resumable and budgeted like `mineRules`: the same question window, records that mark questions
 * done, the whole job's spending counted from them, continue-as-new between windows.
 */
export async function buildDecompositionKnowledge(
  input: BuildDecompositionKbInput,
  state?: { runs: number; nextIndex: number },
): Promise<BuildDecompositionKbResult> {
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = proxyActivities<DecompositionKbActivities>({
    taskQueue: taskQueue('offline', prefix),
    startToCloseTimeout: 5 * 60_000 + 4 * input.sqlTimeoutMs,
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['JobIdTaken', 'DatasetUnavailable'] },
  });
  const runs = (state?.runs ?? 0) + 1;
  const progress: DecompositionKbProgress = {
    phase: 'sampling',
    total: 0,
    done: 0,
    inFlight: 0,
    stored: 0,
    wrong: 0,
    withoutDag: 0,
    failedQuestions: 0,
    llmCalls: 0,
    tokens: 0,
    runs,
  };
  setHandler(decompositionKbProgressQuery, () => ({ ...progress }));
  const status = await offline.openDecompositionJob.executeWithOptions({ summary: `sample ${input.sample.size} questions of ${input.dataset}` }, [input]);
  const budget = new RunBudget(input.budget, () => Date.now(), { usage: status.usage });
  Object.assign(progress, {
    phase: 'building',
    total: status.total,
    done: status.done,
    stored: status.stored,
    wrong: status.wrong,
    withoutDag: status.withoutDag,
  });
  const show = () => {
    Object.assign(progress, { llmCalls: budget.paidCalls, tokens: totalTokens(budget.usage), stoppedBy: budget.stoppedBy?.message });
    setCurrentDetails(
      `**${progress.phase}**: ${progress.done}/${progress.total} questions (${progress.inFlight} in flight); ${progress.stored} decompositions stored, ` +
        `${progress.wrong} wrong, ${progress.withoutDag} without a DAG; ${progress.llmCalls} paid LLM calls, ${progress.tokens} tokens` +
        (progress.stoppedBy ? `; **stopped**: ${progress.stoppedBy}` : ''),
    );
  };
  show();

  async function build(question: BenchmarkQuestion): Promise<void> {
    try {
      const result = await awaitAnswer(
        executeChild<typeof answerQuestion>('answerQuestion', {
          workflowId: `${input.jobId}/q${question.index}`,
          taskQueue: taskQueue('online', prefix),
          args: [
            {
              question: question.question,
              database: question.database,
              evidence: question.evidence,
              ...input.answer,
              pipeline: { decomposition: { enabled: true, always: true } },
            },
          ],
          staticSummary: `decompose: ${question.question.slice(0, 180)}`,
          typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(question.database) }],
        }),
      );
      budget.recordRun(result.usage);
      const record = await offline.recordDecomposition.executeWithOptions({ summary: `judge and store the decomposition of question ${question.index}` }, [
        {
          jobId: input.jobId,
          question,
          answer: { sql: result.sql, outcome: result.outcome, ...(result.dag ? { dag: result.dag.final } : {}), usage: result.usage },
          timeoutMs: input.sqlTimeoutMs,
        },
      ]);
      progress.done++;
      if (record.stored) progress.stored++;
      else if (record.hasDag) progress.wrong++;
      else progress.withoutDag++;
    } catch (err) {
      progress.failedQuestions++;
      setCurrentDetails(`question ${question.index} failed: ${failureMessage(err)}`);
    }
  }

  const window = await runQuestionWindow({
    total: status.total,
    nextIndex: state?.nextIndex ?? 0,
    concurrency: input.concurrency,
    perRun: input.questionsPerRun,
    fetch: (from) =>
      offline.nextDecompositionQuestions.executeWithOptions({ summary: `unfinished questions from #${from}` }, [{ jobId: input.jobId, from, count: PAGE }]),
    budget,
    handle: build,
    onInFlight: (n) => {
      progress.inFlight = n;
      show();
    },
  });
  if (budget.stoppedBy) {
    progress.phase = 'stopped';
    show();
    return { status: 'budget_exhausted', progress: { ...progress }, stoppedBy: budget.stoppedBy.message };
  }
  if (window.resumeFrom !== null) return continueAsNew<typeof buildDecompositionKnowledge>(input, { runs, nextIndex: window.resumeFrom });
  progress.phase = 'done';
  show();
  return { status: 'completed', progress: { ...progress } };
}
