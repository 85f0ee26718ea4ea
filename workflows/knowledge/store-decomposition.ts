import { executeChild, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { DecompositionKbActivities } from '../../activities/knowledge/decomposition-kb-activities';
import type { BuildDecompositionKbInput } from '../../core/knowledge/decomposition-kb-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { databaseLabel } from '../../core/database-label';
import { DATABASE } from '../../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import { awaitAnswer } from '../../core/unanswered-run';
import type { RunUsage } from '../../core/usage';
import type { answerQuestion } from '../answer-question';
import type { StepRunner } from '../kit/step-runner';

/** What one training question left in the knowledge base, and what answering it cost. */
export interface StoredDecomposition {
  stored: boolean;
  hasDag: boolean;
  usage: RunUsage;
}

/**
 * One training question of the decomposition knowledge base (DecoSearch §3.5): answered by an
 * `answerQuestion` child forced onto the complex route, then judged against its gold SQL; the
 * DAG of a correct answer (`result.dag.final`) is stored as an example the decomposer retrieves.
 */
export async function storeDecomposition(
  input: BuildDecompositionKbInput,
  runner: StepRunner,
  offline: ActivityInterfaceFor<DecompositionKbActivities>,
  question: BenchmarkQuestion,
): Promise<StoredDecomposition> {
  const result = await awaitAnswer(
    executeChild<typeof answerQuestion>('answerQuestion', {
      workflowId: `${input.jobId}/q${question.index}`,
      taskQueue: taskQueue('online', queuePrefixOf(workflowInfo().taskQueue)),
      args: [
        {
          question: question.question,
          database: question.database,
          evidence: question.evidence,
          ...input.answer,
          pipeline: { decomposition: { enabled: true, always: true } },
          withholdExamplesOf: question.dbId,
        },
      ],
      staticSummary: `decompose: ${question.question.slice(0, 180)}`,
      typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(question.database) }],
    }),
  );
  const record = await runner.step(
    { stage: 'knowledge', name: 'recordDecomposition', summary: `judge and store the decomposition of question ${question.index}` },
    (o) =>
      offline.recordDecomposition.executeWithOptions(o, [
        {
          jobId: input.jobId,
          question,
          answer: { sql: result.sql, outcome: result.outcome, ...(result.dag ? { dag: result.dag.final } : {}), usage: result.usage },
          timeoutMs: input.sqlTimeoutMs,
        },
      ]),
  );
  return { stored: record.stored, hasDag: record.hasDag, usage: result.usage };
}
