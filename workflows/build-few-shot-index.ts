import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { FewShotJobActivities } from '../activities/knowledge/few-shot-job-activities';
import { RunBudget } from '../core/budget';
import type { BuildFewShotIndexInput } from '../core/knowledge/few-shot-job-types';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { JobProgress } from './kit/job-progress';
import { StepRunner } from './kit/step-runner';
import { progressQuery, traceQuery, type JobStepProgress } from './queries';

const STAGE = 'knowledge';

/**
 * Builds DexterSQL's few-shot index (§3.3.2) from training questions and their SQL: page by page
 * into a new collection (each page one activity, written idempotently, so a crash costs at most a
 * page again and no model call), continuing as new every `pagesPerRun` pages, then published so
 * the few-shot path reads it. `progress` answers with the examples indexed so far, `trace` with
 * the run's steps.
 */
export async function buildFewShotIndex(
  input: BuildFewShotIndexInput,
  state?: { from: number; total: number; collection: string },
): Promise<{ collection: string; examples: number }> {
  const jobs = proxyActivities<FewShotJobActivities>({
    taskQueue: taskQueue('offline', queuePrefixOf(workflowInfo().taskQueue)),
    startToCloseTimeout: 10 * 60_000,
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['DatasetUnavailable'] },
  });
  // No step calls a model, so the budget never refuses one.
  const runner = new StepRunner(new RunBudget({ maxLlmCalls: 0, maxTokens: 0 }, () => Date.now()), 1);
  setHandler(traceQuery, () => runner.trace);
  const opened = state ?? {
    from: 0,
    ...(await runner.step({ stage: STAGE, name: 'openFewShotIndexJob', summary: `read ${input.sources.join(', ')}` }, (o) =>
      jobs.openFewShotIndexJob.executeWithOptions(o, [input]),
    )),
  };
  const progress = new JobProgress<JobStepProgress>(progressQuery, { step: 'few-shot index', done: opened.from, total: opened.total }, (p) =>
    p.done < p.total ? `**indexing** ${p.done}/${p.total} examples into ${opened.collection}` : `**done**: ${p.total} examples in ${opened.collection}`,
  );
  let from = opened.from;
  for (let pages = 0; from < opened.total; pages++) {
    if (pages >= input.pagesPerRun || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof buildFewShotIndex>(input, { ...opened, from });
    }
    const page = { job: input, collection: opened.collection, from };
    const summary = `examples ${from}–${Math.min(opened.total, from + input.pageSize) - 1}`;
    from += await runner.step({ stage: STAGE, name: 'indexFewShotPage', summary }, (o) => jobs.indexFewShotPage.executeWithOptions(o, [page]));
    progress.update({ done: from });
  }
  await runner.step({ stage: STAGE, name: 'publishFewShotIndexJob', summary: `publish ${opened.total} examples` }, (o) =>
    jobs.publishFewShotIndexJob.executeWithOptions(o, [{ job: input, collection: opened.collection, total: opened.total }]),
  );
  progress.show();
  return { collection: opened.collection, examples: opened.total };
}
