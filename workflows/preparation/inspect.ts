import { upsertSearchAttributes } from '@temporalio/workflow';
import { redactDatabaseSpec } from '../../core/database-label';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { DATABASE } from '../../core/search-attributes';
import { PREPARATION_STAGE, PHASE_SUMMARIES, type PreparationRun } from './preparation-run';

/**
 * The first look at the target: its fingerprint, schema and what is already stored for it (the
 * complete manifest of an unchanged database, the tables a crashed run already profiled). The
 * run is then findable in the Web UI by the database's name.
 */
export async function inspectTarget(run: PreparationRun): Promise<DatabaseInspection> {
  const { input, config, limits } = run;
  const where = redactDatabaseSpec(input.database);
  run.progress.update({ step: 'inspect', done: 0, total: 1, detail: `fingerprint and schema of ${where}` });
  const inspection = await run.runner.step(
    { stage: PREPARATION_STAGE, name: 'inspect', summary: PHASE_SUMMARIES.inspect },
    () =>
      run.offline.inspectDatabase.executeWithOptions({ summary: `inspect ${where}: fingerprint, schema, stored artifacts` }, [
        { database: input.database, documentation: input.documentation, config, queryTimeoutMs: limits.queryTimeoutMs },
      ]),
    (i) => ({ outcome: `${i.tables.length} tables, ${i.profiledTables.length} already profiled${i.current ? ', prepared and unchanged' : ''}` }),
  );
  run.runner.stageDone('inspect');
  upsertSearchAttributes([{ key: DATABASE, value: inspection.label }]);
  return inspection;
}
