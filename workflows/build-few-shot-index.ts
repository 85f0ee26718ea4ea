import { ApplicationFailure, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { FewShotJobActivities } from '../activities/knowledge/few-shot-job-activities';
import { RunBudget } from '../core/budget';
import { FEW_SHOT_JOB_DEFAULTS, type BuildFewShotIndexInput, type BuildFewShotIndexResult, type FewShotPageResult } from '../core/knowledge/few-shot-job-types';
import { addFewShotPage, emptyFewShotTally, fileWithoutExamples, rejectedExamples, type FewShotTally } from '../core/knowledge/few-shot-tally';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { JobProgress } from './kit/job-progress';
import { StepRunner } from './kit/step-runner';
import { progressQuery, traceQuery, type JobStepProgress } from './queries';

const STAGE = 'knowledge';
/** A worker that dies while a page runs is noticed within this much (the page heartbeats), not at the page's timeout. */
const PAGE_HEARTBEAT_TIMEOUT_MS = 15_000;

/**
 * Builds DexterSQL's few-shot index (§3.3.2) from training questions and their SQL: page by page
 * into a new collection (each page one activity, written idempotently, so a crash costs at most a
 * page again and no model call), continuing as new every `pagesPerRun` pages, then published so
 * the few-shot path reads it. A user's file is validated on the way: each example's SQL runs once
 * on its database, and those that do not run are left out and reported (the result's `rejected`
 * and `rejections`); a file none of whose examples runs fails the job. `progress` answers with
 * the examples indexed so far, `trace` with the run's steps.
 */
export async function buildFewShotIndex(
  input: BuildFewShotIndexInput,
  state?: { from: number; total: number; collection: string; tally?: FewShotTally },
): Promise<BuildFewShotIndexResult> {
  const retry = { maximumAttempts: 5, nonRetryableErrorTypes: ['DatasetUnavailable'] };
  const offline = taskQueue('offline', queuePrefixOf(workflowInfo().taskQueue));
  const jobs = proxyActivities<FewShotJobActivities>({ taskQueue: offline, startToCloseTimeout: 10 * 60_000, retry });
  const sqlTimeoutMs = input.sqlTimeoutMs ?? FEW_SHOT_JOB_DEFAULTS.sqlTimeoutMs;
  // A page may run one statement per example, each bounded by the timeout.
  const pages = proxyActivities<FewShotJobActivities>({
    taskQueue: offline,
    startToCloseTimeout: 10 * 60_000 + input.pageSize * sqlTimeoutMs,
    heartbeatTimeout: Math.max(PAGE_HEARTBEAT_TIMEOUT_MS, 2 * sqlTimeoutMs + 5_000),
    retry,
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
  let tally = opened.tally ?? emptyFewShotTally();
  const progress = new JobProgress<JobStepProgress>(progressQuery, { step: 'few-shot index', done: opened.from, total: opened.total }, (p) => {
    const rejected = rejectedExamples(tally) ? `, ${rejectedExamples(tally)} rejected (their SQL did not run)` : '';
    return p.done < p.total
      ? `**indexing** ${p.done}/${p.total} examples into ${opened.collection}${rejected}`
      : `**done**: ${p.total - rejectedExamples(tally)} examples in ${opened.collection}${rejected}`;
  });
  let from = opened.from;
  for (let run = 0; from < opened.total; run++) {
    if (run >= input.pagesPerRun || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof buildFewShotIndex>(input, { ...opened, from, tally });
    }
    const page = { job: input, collection: opened.collection, from };
    const summary = `examples ${from}–${Math.min(opened.total, from + input.pageSize) - 1}`;
    const done: FewShotPageResult | number = await runner.step({ stage: STAGE, name: 'indexFewShotPage', summary }, (o) =>
      pages.indexFewShotPage.executeWithOptions(o, [page]),
    );
    // A page completed before pages reported what they rejected returned its example count alone.
    const result = typeof done === 'number' ? { examples: done, files: {}, rejections: [] } : done;
    tally = addFewShotPage(tally, result);
    from += result.examples;
    progress.update({ done: from });
  }
  const problem = fileWithoutExamples(tally);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'NoRunnableExamples');
  const examples = opened.total - rejectedExamples(tally);
  await runner.step({ stage: STAGE, name: 'publishFewShotIndexJob', summary: `publish ${examples} examples` }, (o) =>
    jobs.publishFewShotIndexJob.executeWithOptions(o, [{ job: input, collection: opened.collection, total: examples }]),
  );
  progress.show();
  return { collection: opened.collection, examples, rejected: rejectedExamples(tally), rejections: tally.rejections, files: tally.files };
}
