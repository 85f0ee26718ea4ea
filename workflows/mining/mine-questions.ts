import { executeChild } from '@temporalio/workflow';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { taskQueue } from '../../core/task-queues';
import type { MineQuestionBrief } from '../../core/mining/mining-types';
import { onceMoreIfOutOfTime } from '../kit/once-more-if-out-of-time';
import { runQuestionWindow } from '../kit/question-window';
import { failureMessage } from '../kit/step-runner';
import type { mineTrainingQuestion } from './mine-training-question';
import type { MiningJob } from './mining-job';

/** Questions fetched per activity call: enough to keep the window full, small as a payload. */
const PAGE = 25;

/**
 * Steps 1–2 of the rule creator (§3.1.4), error mining and isolation: one `mineTrainingQuestion`
 * child per unmined question (id `<job>/q<index>`), in the question window. Returns where the
 * next run resumes (null when every question was handed out).
 */
export async function mineQuestions(job: MiningJob, total: number, nextIndex: number): Promise<number | null> {
  const { input, runner, progress, budget } = job;
  const { offline, prefix } = job.activities;

  async function mine(question: BenchmarkQuestion): Promise<void> {
    try {
      const mineOnce = (earlier?: MineQuestionBrief) =>
        executeChild<typeof mineTrainingQuestion>('mineTrainingQuestion', {
          workflowId: `${input.jobId}/q${question.index}${earlier ? '/again' : ''}`,
          taskQueue: taskQueue('offline', prefix),
          args: [
            {
              jobId: input.jobId,
              question,
              answer: input.answer,
              sqlTimeoutMs: input.sqlTimeoutMs,
              ...(earlier ? { again: true, earlierUsage: earlier.usage } : {}),
            },
          ],
          staticSummary: `mine: ${question.question.slice(0, 180)}`,
        });
      const { answer: brief } = await onceMoreIfOutOfTime(
        mineOnce,
        (b) => b.outOfTime === true,
        () => runner.note('mining', 'mineTrainingQuestion', `question ${question.index} ran out of time: mined once more`),
      );
      // The second run's usage includes the first's.
      budget.recordRun(brief.usage);
      const p = progress.state;
      progress.update({ done: p.done + 1, failures: p.failures + brief.failures, agnosticFailures: p.agnosticFailures + brief.agnosticFailures });
    } catch (err) {
      // A question whose workflow failed is left unmined (no record): the next run of the job retries it.
      progress.update({ failedQuestions: progress.state.failedQuestions + 1, lastFailure: `question ${question.index}: ${failureMessage(err)}` });
      runner.note('mining', 'mineTrainingQuestion', `question ${question.index} failed`, { outcome: failureMessage(err) });
    }
  }

  const window = await runQuestionWindow({
    total,
    nextIndex,
    concurrency: input.concurrency,
    perRun: input.questionsPerRun,
    fetch: (from) =>
      runner.step({ stage: 'mining', name: 'nextMiningQuestions', summary: `unmined questions from #${from}` }, (o) =>
        offline.nextMiningQuestions.executeWithOptions(o, [{ jobId: input.jobId, from, count: PAGE }]),
      ),
    budget,
    handle: mine,
    onInFlight: (inFlight) => {
      progress.state.inFlight = inFlight;
      job.showSpending();
    },
  });
  return window.resumeFrom;
}
