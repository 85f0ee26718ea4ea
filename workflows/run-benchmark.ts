import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { BenchmarkActivities } from '../activities/benchmark/benchmark-activities';
import type { BenchmarkProgress, RunBenchmarkInput, RunBenchmarkState } from '../core/benchmark/benchmark-types';
import type { BenchmarkSummary } from '../core/benchmark/summarize-benchmark';
import { RunBudget } from '../core/budget';
import type { BenchmarkQuestion } from '../core/datasets/benchmark-question';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { predictBenchmarkQuestion } from './benchmark/ask-benchmark-question';
import { JobProgress } from './kit/job-progress';
import { runQuestionWindow } from './kit/question-window';
import { StepRunner } from './kit/step-runner';
import { benchmarkProgressQuery, traceQuery } from './queries';

export interface RunBenchmarkResult {
  summary: BenchmarkSummary;
  files: { report_json: string; summary_markdown: string; chart_svg: string };
}

/** Questions fetched per activity call: enough to keep the window full, small as a payload. */
const PAGE = 25;
const DEFAULT_QUESTIONS_PER_RUN = 100;
const HEARTBEAT_TIMEOUT_MS = 30_000;
const STAGE = 'benchmark';

/**
 * Runs a benchmark: each question is asked through an `answerQuestion` child workflow (preset
 * and ablations passed through untouched) or, with goldAsPrediction, takes its gold SQL as the
 * prediction; then an activity evaluates it under the dataset's official rule and stores its
 * record. Questions go through the question window, at most `concurrency` in flight.
 *
 * Durable and resumable: child ids are `<benchmarkId>/q<index>`, finished questions are the
 * stored records, and questions are handed out only when they have none, so a rerun under the
 * same id (after a crash, a cancel, a terminate) asks only what is left. Every
 * `questionsPerRun` questions the workflow drains its window and continues as new, carrying only
 * counters, so histories stay small however long the dataset.
 */
export async function runBenchmark(input: RunBenchmarkInput, state?: RunBenchmarkState): Promise<RunBenchmarkResult> {
  const offline = (startToCloseTimeout: number) =>
    proxyActivities<BenchmarkActivities>({
      taskQueue: taskQueue('offline', queuePrefixOf(workflowInfo().taskQueue)),
      startToCloseTimeout,
      // Evaluations heartbeat while their queries run: a dead worker's one is retried after this.
      heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['BenchmarkIdTaken', 'DatasetUnavailable', 'BenchmarkNotPrepared'] },
    });
  const bench = offline(5 * 60_000);
  // No job budget: each question has its own; the runner traces the job's steps.
  const runner = new StepRunner(new RunBudget({ maxLlmCalls: Infinity, maxTokens: Infinity }, () => Date.now()), 2);
  setHandler(traceQuery, () => runner.trace);
  const prepared =
    state?.prepared ??
    (await runner.step({ stage: STAGE, name: 'prepareBenchmark', summary: `load ${input.dataset}` }, (o) =>
      bench.prepareBenchmark.executeWithOptions(o, [input]),
    ));
  const progress = new JobProgress<BenchmarkProgress>(
    benchmarkProgressQuery,
    {
      total: prepared.total,
      done: state?.done ?? prepared.finished?.done ?? 0,
      correct: state?.correct ?? prepared.finished?.correct ?? 0,
      inFlight: 0,
      runs: (state?.runs ?? 0) + 1,
    },
    (p) => `**${p.done}/${p.total}** evaluated, ${p.correct} correct`,
  );

  async function handle(question: BenchmarkQuestion): Promise<void> {
    const prediction = await predictBenchmarkQuestion(input, question);
    const { timeoutMs, vesRepetitions } = input.evaluation;
    const pairs = 1 + (prediction.candidates?.length ?? 0);
    const deadline = pairs * 2 * timeoutMs * Math.max(1, question.evaluationDatabases.length) + vesRepetitions * timeoutMs + 60_000;
    const brief = await runner.step(
      { stage: STAGE, name: 'evaluateBenchmarkAnswer', summary: `evaluate question ${question.id} (${input.evaluation.evaluator} rules)` },
      (o) =>
        offline(deadline).evaluateBenchmarkAnswer.executeWithOptions(o, [{ benchmarkId: input.benchmarkId, question, prediction, settings: input.evaluation }]),
    );
    progress.update({ done: progress.state.done + 1, correct: progress.state.correct + (brief.verdict === 'correct' ? 1 : 0) });
  }

  const window = await runQuestionWindow({
    total: prepared.total,
    nextIndex: state?.nextIndex ?? 0,
    concurrency: input.concurrency,
    perRun: input.questionsPerRun ?? DEFAULT_QUESTIONS_PER_RUN,
    fetch: (from) =>
      runner.step({ stage: STAGE, name: 'nextBenchmarkQuestions', summary: `questions from #${from}` }, (o) =>
        bench.nextBenchmarkQuestions.executeWithOptions(o, [{ benchmarkId: input.benchmarkId, from, count: PAGE }]),
      ),
    handle,
    onInFlight: (inFlight) => progress.update({ inFlight }),
  });
  const { done, correct, runs } = progress.state;
  if (window.resumeFrom !== null) return continueAsNew<typeof runBenchmark>(input, { prepared, nextIndex: window.resumeFrom, done, correct, runs });
  return runner.step({ stage: STAGE, name: 'writeBenchmarkReport', summary: `write reports to ${input.reportDir} (${done} questions evaluated)` }, (o) =>
    bench.writeBenchmarkReport.executeWithOptions(o, [input]),
  );
}
