import { ApplicationFailure, executeChild, workflowInfo } from '@temporalio/workflow';
import type { OpenQuestionOutput } from '../../core/question/question-opening';
import { DATABASE } from '../../core/search-attributes';
import { upsertSearchAttributes } from '@temporalio/workflow';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';
import type { prepareDatabase } from '../prepare-database';
import type { QuestionContext } from '../../core/question/question-context';
import type { StageKit } from './stage-kit';

/**
 * The first stage: open the database and learn what decodex has for it. Retrieval-based linking
 * needs DexterSQL's offline artifacts; a database never prepared is prepared here first (without a
 * model: profiles and indices in seconds, notes need `decodex prepare`) when the configuration
 * says so, or answered over the whole schema otherwise. Throws when the database cannot be opened
 * or has no tables.
 */
export async function openDatabase(kit: StageKit): Promise<OpenQuestionOutput> {
  const stage = 'open';
  const open = () =>
    kit.runner.step(
      { stage, name: 'openQuestion', summary: 'open the database; find its preparation and the learned knowledge' },
      (o) => kit.online.openQuestion.executeWithOptions(o, [{ database: kit.input.database }]),
      (r) => ({
        outcome: `${r.dialect}, ${r.tables} tables, ${r.columns} columns; ${r.prepared ? `prepared ${r.prepared.preparedAt}, ${r.prepared.notes} notes` : 'not prepared'}${(r.warnings ?? []).map((w) => `; warning: ${w}`).join('')}`,
      }),
    );
  let opened = await open();
  upsertSearchAttributes([{ key: DATABASE, value: opened.label }]);
  if (opened.tables === 0) {
    // Nothing to ask a model about: say so now, not after every model call has failed on an empty schema.
    throw ApplicationFailure.nonRetryable(
      `the database ${opened.label} has no tables (is it the right file or database name?); nothing was asked of a model`,
      'EmptyDatabase',
    );
  }
  // DexterSQL's linking retrieves from the indices; any strategy does when the matched values are wanted.
  const wantsRetrieval = kit.config.linking.strategy === 'dextersql' || kit.config.linking.matchValues;
  if (!opened.prepared && wantsRetrieval) {
    if (kit.config.linking.whenUnprepared === 'prepare') {
      await kit.runner.step(
        { stage, name: 'prepareDatabase', summary: 'first question on this database: profile and index it (no model; `decodex prepare` adds notes)' },
        () =>
          executeChild<typeof prepareDatabase>('prepareDatabase', {
            args: [{ database: kit.input.database, config: { exploration: { useLlm: false } } }],
            workflowId: `${workflowInfo().workflowId}-prepare`,
            taskQueue: taskQueue('offline', queuePrefixOf(workflowInfo().taskQueue)),
            staticSummary: `prepare ${opened.label} for a first question`,
          }),
        (r) => ({ outcome: `${r.status}: ${r.manifest.counts.columns} columns profiled, ${r.manifest.counts.valuesIndexed} values indexed` }),
      );
      opened = await open();
    } else {
      kit.runner.note(stage, 'prepareDatabase', 'the database is not prepared', {
        skipped: 'linking.whenUnprepared is full-schema: retrieval needs a prepared database',
      });
    }
  }
  kit.runner.stageDone(stage);
  return opened;
}

/** What every later step is told of the opened database: its dialect and which preparation it has. */
export function openedContext(opened: OpenQuestionOutput): Pick<QuestionContext, 'dialect' | 'prepared'> {
  return {
    dialect: opened.dialect,
    prepared: opened.prepared ? { databaseId: opened.prepared.databaseId, versions: opened.prepared.versions } : null,
  };
}
