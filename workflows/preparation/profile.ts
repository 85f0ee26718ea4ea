import { mapWithConcurrency } from '../../core/map-with-concurrency';
import { batchByWork } from '../../core/preparation/work-batches';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { describeBatch, runPhase, type PreparationRun } from './preparation-run';

/**
 * The column profiler (§3.1.1): the tables not profiled yet, in batches of about
 * `valuesPerActivity` values read (a small database is one activity, a big table one of its own).
 * Stored profiles are reused even with `force`: same version, same data, same profile.
 * Returns how many tables it profiled.
 */
export async function profileColumns(run: PreparationRun, inspection: DatabaseInspection): Promise<number> {
  const { input, config, limits } = run;
  const finished = new Set(inspection.profiledTables);
  const todo = inspection.tables.filter((t) => !finished.has(t.name));
  const batches = batchByWork(todo, (t) => Math.min(t.rowCount, config.profile.rowScanLimit) * t.columnCount, limits.valuesPerActivity);
  let profiled = inspection.tables.length - todo.length;
  await runPhase(
    run,
    'profile',
    { done: profiled, total: inspection.tables.length, detail: `${todo.length} tables to profile` },
    () =>
      mapWithConcurrency(batches, limits.parallelTables, async (batch) => {
        const names = describeBatch(batch.map((t) => t.name));
        const columns = batch.reduce((n, t) => n + t.columnCount, 0);
        const rows = batch.reduce((n, t) => n + t.rowCount, 0);
        const out = await run.runner.step({ stage: 'profile', name: 'profileTables', summary: `profile ${names}: ${columns} columns, ${rows} rows` }, (o) =>
          run.offline.profileTables.executeWithOptions(o, [
            {
              database: input.database,
              databaseId: inspection.databaseId,
              versions: inspection.versions,
              tables: batch.map((t) => t.name),
              config: config.profile,
              queryTimeoutMs: limits.queryTimeoutMs,
              columnsPerScan: limits.columnsPerScan,
            },
          ]),
        );
        run.activityMs.profiling += out.elapsedMs;
        profiled += batch.length;
        run.progress.update({ done: profiled, detail: `profiled ${names}` });
        return out;
      }),
    (outs) => `${todo.length} tables profiled in ${outs.length} activities, ${inspection.tables.length - todo.length} reused`,
  );
  return todo.length;
}
