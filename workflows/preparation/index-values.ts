import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { runPhase, type PreparationRun } from './preparation-run';

/** The index generator (§3.1.2): profile index and value index (+ lexical index), side by side in one activity. */
export async function indexProfilesAndValues(run: PreparationRun, inspection: DatabaseInspection) {
  const { input, config, limits } = run;
  const indices = await runPhase(
    run,
    'index',
    { total: 1, detail: 'embedding profiles and values' },
    () =>
      run.runner.step(
        {
          stage: 'index',
          name: 'buildIndices',
          summary: `embed one profile per column, and distinct text values (≤ ${config.index.valuesPerColumn} per column), into the profile and value indices`,
        },
        (o) =>
          run.offline.buildIndices.executeWithOptions(o, [
            {
              database: input.database,
              databaseId: inspection.databaseId,
              versions: inspection.versions,
              config: config.index,
              queryTimeoutMs: limits.queryTimeoutMs,
            },
          ]),
      ),
    ({ profiles: p, values: v }) => `${p.columns} profiles, ${v.valuesIndexed} text values embedded, ${v.lexiconValues} values in the lexical index`,
  );
  run.activityMs.valueIndex += indices.values.valueIndexMs;
  run.activityMs.profileIndex += indices.profiles.elapsedMs;
  return indices;
}
