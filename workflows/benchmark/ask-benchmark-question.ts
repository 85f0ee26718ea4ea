import { executeChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { AnswerQuestionResult } from '../../core/answer-question-types';
import type { PredictionForEvaluation, RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { databaseLabel } from '../../core/database-label';
import { isTrainingSplit } from '../../core/datasets/training-split';
import { DATABASE, PRESET } from '../../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import { awaitAnswer } from '../../core/unanswered-run';
import { emptyUsage } from '../../core/usage';
import type { answerQuestion } from '../answer-question';
import { failureMessage } from '../kit/step-runner';

/**
 * A benchmark question's prediction: its gold SQL (goldAsPrediction), or the answer of an
 * `answerQuestion` child `<benchmarkId>/q<index>` run with the benchmark's preset, ablations and
 * overrides untouched. A failed run is a prediction too (no SQL, the failure's message).
 */
export async function predictBenchmarkQuestion(input: RunBenchmarkInput, question: BenchmarkQuestion, attempt = 0): Promise<PredictionForEvaluation> {
  if (input.goldAsPrediction) return { sql: question.goldSql, outcome: 'gold', route: 'gold', usage: emptyUsage(), latencyMs: null };
  const workflowId = `${input.benchmarkId}/q${question.index}${attempt ? `.${attempt}` : ''}`;
  const started = Date.now();
  try {
    const result = await awaitAnswer(
      executeChild<typeof answerQuestion>('answerQuestion', {
        workflowId,
        taskQueue: taskQueue('online', queuePrefixOf(workflowInfo().taskQueue)),
        args: [
          {
            question: question.question,
            database: question.database,
            evidence: question.evidence,
            preset: input.preset,
            ablations: input.ablations,
            pipeline: input.pipeline,
            limits: input.questionLimits,
            ...((input.withholdSameDatabaseExamples ?? isTrainingSplit(input.dataset)) ? { withholdExamplesOf: question.dbId } : {}),
          },
        ],
        staticSummary: question.question.slice(0, 200),
        typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(question.database) }, ...(input.preset ? [{ key: PRESET, value: input.preset }] : [])],
      }),
    );
    return predictionOf(result, Date.now() - started, workflowId);
  } catch (err) {
    // A run of an earlier, terminated benchmark may still hold the id: take the next one.
    if (err instanceof WorkflowExecutionAlreadyStartedError && attempt < 5) return predictBenchmarkQuestion(input, question, attempt + 1);
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
    candidates: result.candidates.map((c) => ({
      path: c.path,
      generatedSql: c.generatedSql,
      sql: c.sql,
      ...(c.corrections.length ? { corrections: c.corrections } : {}),
    })),
    ...(result.selection ? { selection: result.selection.method } : {}),
    ...(result.focusedSchema ? { focusedSchema: result.focusedSchema } : {}),
  };
}
