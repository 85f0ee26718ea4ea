import { continueAsNew, executeChild, proxyActivities, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { createBenchmarkActivities } from '../activities/benchmark/benchmark-activities';
import type { AnswerQuestionResult } from '../core/answer-question-types';
import type { EvaluatedBrief, PredictionForEvaluation, RunBenchmarkInput, RunBenchmarkState } from '../core/benchmark/benchmark-types';
import type { BenchmarkSummary } from '../core/benchmark/summarize-benchmark';
import type { BenchmarkQuestion } from '../core/datasets/benchmark-question';
import { databaseLabel } from '../core/database-label';
import { DATABASE, PRESET } from '../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { emptyUsage } from '../core/usage';
import type { answerQuestion } from './answer-question';
import { awaitAnswer } from '../core/unanswered-run';
import { benchmarkProgressQuery } from './queries';
import { failureMessage } from './kit/step-runner';

type BenchmarkActivities = ReturnType<typeof createBenchmarkActivities>;

export interface RunBenchmarkResult {
  summary: BenchmarkSummary;
  files: { report_json: string; summary_markdown: string; chart_svg: string };
}

/** Questions fetched per activity call: enough to keep the window full, small as a payload. */
const PAGE = 25;
const DEFAULT_QUESTIONS_PER_RUN = 100;
const HEARTBEAT_TIMEOUT_MS = 30_000;

/**
 * Runs a benchmark: each question is asked through an `answerQuestion` child workflow (preset
 * and ablations passed through untouched) or, with goldAsPrediction, takes its gold SQL as the
 * prediction; then an activity evaluates it under the dataset's official rule and stores its
 * record. At most `concurrency` questions are in flight.
 *
 * Durable and resumable: child ids are `<benchmarkId>/q<index>`, finished questions are the
 * stored records, and questions are handed out only when they have none, so a rerun under the
 * same id (after a crash, a cancel, a terminate) asks only what is left. Every
 * `questionsPerRun` questions the workflow drains its window and continues as new, carrying only
 * counters, so histories stay small however long the dataset.
 */
export async function runBenchmark(input: RunBenchmarkInput, state?: RunBenchmarkState): Promise<RunBenchmarkResult> {
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = (startToCloseTimeout: number) =>
    proxyActivities<BenchmarkActivities>({
      taskQueue: taskQueue('offline', prefix),
      startToCloseTimeout,
      // Evaluations heartbeat while their queries run: a dead worker's one is retried after this.
      heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['BenchmarkIdTaken', 'DatasetUnavailable', 'BenchmarkNotPrepared'] },
    });
  const bench = offline(5 * 60_000);

  const prepared = state?.prepared ?? (await bench.prepareBenchmark.executeWithOptions({ summary: `load ${input.dataset}` }, [input]));
  let { nextIndex, done, correct } = state ?? { nextIndex: 0, done: 0, correct: 0 };
  const runs = (state?.runs ?? 0) + 1;
  const inFlight = new Map<number, Promise<void>>();
  setHandler(benchmarkProgressQuery, () => ({ total: prepared.total, done, correct, inFlight: inFlight.size, runs }));

  const queue: BenchmarkQuestion[] = [];
  const perRun = input.questionsPerRun ?? DEFAULT_QUESTIONS_PER_RUN;
  let startedThisRun = 0;
  const timeToContinue = () => startedThisRun >= perRun || workflowInfo().continueAsNewSuggested;

  async function evaluate(question: BenchmarkQuestion, prediction: PredictionForEvaluation): Promise<EvaluatedBrief> {
    const { timeoutMs, vesRepetitions } = input.evaluation;
    const pairs = 1 + (prediction.candidates?.length ?? 0);
    const budget = pairs * 2 * timeoutMs * Math.max(1, question.evaluationDatabases.length) + vesRepetitions * timeoutMs + 60_000;
    return offline(budget).evaluateBenchmarkAnswer.executeWithOptions({ summary: `evaluate question ${question.id} (${input.evaluation.evaluator} rules)` }, [
      { benchmarkId: input.benchmarkId, question, prediction, settings: input.evaluation },
    ]);
  }

  async function handle(question: BenchmarkQuestion): Promise<void> {
    const prediction = input.goldAsPrediction ? goldPrediction(question) : await ask(question);
    const brief = await evaluate(question, prediction);
    done++;
    if (brief.verdict === 'correct') correct++;
    setCurrentDetails(`**${done}/${prepared.total}** evaluated, ${correct} correct`);
  }

  async function ask(question: BenchmarkQuestion, attempt = 0): Promise<PredictionForEvaluation> {
    const workflowId = `${input.benchmarkId}/q${question.index}${attempt ? `.${attempt}` : ''}`;
    const started = Date.now();
    try {
      const result = await awaitAnswer(
        executeChild<typeof answerQuestion>('answerQuestion', {
          workflowId,
          taskQueue: taskQueue('online', prefix),
          args: [
            {
              question: question.question,
              database: question.database,
              evidence: question.evidence,
              preset: input.preset,
              ablations: input.ablations,
              pipeline: input.pipeline,
              limits: input.questionLimits,
            },
          ],
          staticSummary: question.question.slice(0, 200),
          typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(question.database) }, ...(input.preset ? [{ key: PRESET, value: input.preset }] : [])],
        }),
      );
      return predictionOf(result, Date.now() - started, workflowId);
    } catch (err) {
      // A run of an earlier, terminated benchmark may still hold the id: take the next one.
      if (err instanceof WorkflowExecutionAlreadyStartedError && attempt < 5) return ask(question, attempt + 1);
      return {
        sql: null,
        outcome: 'workflow_failed',
        route: 'none',
        error: failureMessage(err),
        usage: emptyUsage(),
        latencyMs: Date.now() - started,
        workflowId,
      };
    }
  }

  for (;;) {
    if (!timeToContinue()) {
      if (queue.length === 0 && nextIndex < prepared.total) {
        const page = await bench.nextBenchmarkQuestions.executeWithOptions({ summary: `questions from #${nextIndex}` }, [
          { benchmarkId: input.benchmarkId, from: nextIndex, count: PAGE },
        ]);
        queue.push(...page.questions);
        nextIndex = page.scannedTo;
        continue;
      }
      while (inFlight.size < input.concurrency && queue.length > 0 && !timeToContinue()) {
        const question = queue.shift()!;
        startedThisRun++;
        inFlight.set(
          question.index,
          handle(question).finally(() => inFlight.delete(question.index)),
        );
      }
    }
    if (inFlight.size === 0) break;
    await Promise.race(inFlight.values());
  }

  if (queue.length > 0 || nextIndex < prepared.total) {
    const resumeFrom = queue.length > 0 ? queue[0].index : nextIndex;
    return continueAsNew<typeof runBenchmark>(input, { prepared, nextIndex: resumeFrom, done, correct, runs });
  }
  setCurrentDetails(`**writing reports** (${done} questions evaluated in this chain of runs)`);
  return bench.writeBenchmarkReport.executeWithOptions({ summary: `write reports to ${input.reportDir}` }, [input]);
}

function goldPrediction(question: BenchmarkQuestion): PredictionForEvaluation {
  return { sql: question.goldSql, outcome: 'gold', route: 'gold', usage: emptyUsage(), latencyMs: null };
}

/** What the evaluator needs of a run: its SQL, every candidate (UB-EX) and the focused schema (linking recall). */
function predictionOf(result: AnswerQuestionResult, latencyMs: number, workflowId: string): PredictionForEvaluation {
  return {
    sql: result.sql,
    outcome: result.outcome,
    route: result.route,
    ...(result.error ? { error: `${result.error.kind}: ${result.error.message}` } : {}),
    usage: result.usage,
    latencyMs,
    workflowId,
    candidates: result.candidates.map((c) => c.sql),
    ...(result.focusedSchema ? { focusedSchema: result.focusedSchema } : {}),
  };
}
