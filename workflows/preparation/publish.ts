import { redactDatabaseSpec } from '../../core/database-label';
import type { DatabaseInspection, PreparationCounts } from '../../core/preparation/preparation-types';
import { runPhase, type PreparationRun } from './preparation-run';

/**
 * Writes the manifest (what online questions read to find the preparation), then removes the
 * artifacts and collections of older versions. A run the budget stopped publishes what it has,
 * marked incomplete.
 */
export async function publishManifest(run: PreparationRun, inspection: DatabaseInspection, counts: PreparationCounts, noteIds: string[]) {
  const published = await runPhase(
    run,
    'publish',
    { total: 1, detail: 'manifest, then removal of older versions' },
    () =>
      run.runner.step({ stage: 'publish', name: 'publishPreparation', summary: 'write the manifest and remove older versions' }, (o) =>
        run.offline.publishPreparation.executeWithOptions(o, [
          {
            databaseId: inspection.databaseId,
            label: inspection.label,
            database: redactDatabaseSpec(run.input.database),
            dialect: inspection.dialect,
            fingerprint: inspection.fingerprint,
            versions: inspection.versions,
            counts,
            complete: run.budget.stoppedBy === undefined,
            noteIds,
            preparedAt: new Date(run.startedAt).toISOString(),
          },
        ]),
      ),
    (p) => `manifest written; removed ${p.removedArtifacts} old artifacts and ${p.removedCollections.length} old collections`,
  );
  run.progress.update({ step: 'done', done: 1, total: 1, detail: undefined });
  return published.manifest;
}
