import { executeChild, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { DecompositionKbActivities } from '../../activities/knowledge/decomposition-kb-activities';
import type { AnswerQuestionResult } from '../../core/answer-question-types';
import type { BuildDecompositionKbInput } from '../../core/knowledge/decomposition-kb-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { databaseLabel } from '../../core/database-label';
import { DATABASE } from '../../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import { awaitAnswer } from '../../core/unanswered-run';
import { mergeUsage, type RunUsage } from '../../core/usage';
import type { answerQuestion } from '../answer-question';
import { onceMoreIfOutOfTime, outOfTime } from '../kit/once-more-if-out-of-time';
import type { StepRunner } from '../kit/step-runner';

/** What one training question left in the knowledge base, and what answering it cost. */
export interface StoredDecomposition {
  stored: boolean;
  hasDag: boolean;
  /** A correct answer whose DAG is no example (why is in its record). */
  unusable: boolean;
  usage: RunUsage;
}

/**
 * One training question of the decomposition knowledge base (DecoSearch §3.5): answered by an
 * `answerQuestion` child forced onto the complex route, then judged against its gold SQL; the
 * DAG of a correct answer (`result.dag.final`) is stored as an example the decomposer retrieves.
 * A run whose time budget ran out is asked once more (kit/once-more-if-out-of-time.ts).
 */
export async function storeDecomposition(
  input: BuildDecompositionKbInput,
  runner: StepRunner,
  offline: ActivityInterfaceFor<DecompositionKbActivities>,
  question: BenchmarkQuestion,
): Promise<StoredDecomposition> {
  const answer = (earlier?: AnswerQuestionResult) =>
    awaitAnswer(
      executeChild<typeof answerQuestion>('answerQuestion', {
        workflowId: `${input.jobId}/q${question.index}${earlier ? '/again' : ''}`,
        taskQueue: taskQueue('online', queuePrefixOf(workflowInfo().taskQueue)),
        args: [
          {
            question: question.question,
            database: question.database,
            evidence: question.evidence,
            ...input.answer,
            // The seed plan shows a first plan in words until the base holds examples of its own.
            pipeline: { decomposition: { enabled: true, always: true, seedPlan: true } },
            withholdExamplesOf: question.dbId,
          },
        ],
        staticSummary: `decompose: ${question.question.slice(0, 180)}`,
        typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(question.database) }],
      }),
    );
  const { answer: result, runs } = await onceMoreIfOutOfTime(
    answer,
    (r) => outOfTime(r.stoppedBy),
    () => runner.note('knowledge', 'answerQuestion', `question ${question.index} ran out of time: answered once more`),
  );
  const usage = runs.map((r) => r.usage).reduce(mergeUsage);
  const record = await runner.step(
    { stage: 'knowledge', name: 'recordDecomposition', summary: `judge and store the decomposition of question ${question.index}` },
    (o) =>
      offline.recordDecomposition.executeWithOptions(o, [
        {
          jobId: input.jobId,
          question,
          answer: { sql: result.sql, outcome: result.outcome, ...(result.dag ? { dag: result.dag.final } : {}), usage },
          timeoutMs: input.sqlTimeoutMs,
        },
      ]),
  );
  return { stored: record.stored, hasDag: record.hasDag, unusable: record.unusable !== undefined, usage };
}
