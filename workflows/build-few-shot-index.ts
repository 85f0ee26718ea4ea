import { continueAsNew, proxyActivities, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import type { FewShotJobActivities } from '../activities/knowledge/few-shot-job-activities';
import type { BuildFewShotIndexInput } from '../core/knowledge/few-shot-job-types';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { progressQuery } from './queries';

/**
 * Builds DexterSQL's few-shot index (§3.3.2) from training questions and their SQL: page by page
 * into a new collection (each page one activity, written idempotently, so a crash costs at most a
 * page again and no model call), continuing as new every `pagesPerRun` pages, then published so
 * the few-shot path reads it. `progress` answers with the examples indexed so far.
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
  const opened = state ?? { from: 0, ...(await jobs.openFewShotIndexJob.executeWithOptions({ summary: `read ${input.sources.join(', ')}` }, [input])) };
  let from = opened.from;
  setHandler(progressQuery, () => ({ step: 'few-shot index', done: from, total: opened.total }));
  for (let pages = 0; from < opened.total; pages++) {
    if (pages >= input.pagesPerRun || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof buildFewShotIndex>(input, { ...opened, from });
    }
    setCurrentDetails(`**indexing** ${from}/${opened.total} examples into ${opened.collection}`);
    from += await jobs.indexFewShotPage.executeWithOptions({ summary: `examples ${from}–${Math.min(opened.total, from + input.pageSize) - 1}` }, [
      { job: input, collection: opened.collection, from },
    ]);
  }
  await jobs.publishFewShotIndexJob.executeWithOptions({ summary: `publish ${opened.total} examples` }, [
    { job: input, collection: opened.collection, total: opened.total },
  ]);
  setCurrentDetails(`**done**: ${opened.total} examples in ${opened.collection}`);
  return { collection: opened.collection, examples: opened.total };
}
