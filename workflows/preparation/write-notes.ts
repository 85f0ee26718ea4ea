import { groupPairFamilies } from '../../core/exploration/pair-families';
import type { CandidatePair } from '../../core/exploration/pair-types';
import { mapWithConcurrency } from '../../core/map-with-concurrency';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { runPhase, type PreparationRun } from './preparation-run';

/**
 * The explorator's Step 4 (§3.1.3): one disambiguation note per family of confirmed pairs that
 * share columns, within the budget. Returns the ids of the notes written, sorted.
 */
export async function writeNotes(run: PreparationRun, inspection: DatabaseInspection, confirmed: CandidatePair[]): Promise<string[]> {
  const families = groupPairFamilies(confirmed);
  const noteIds: string[] = [];
  await runPhase(
    run,
    'notes',
    { total: families.length, detail: 'one note per family of confusable columns' },
    () =>
      mapWithConcurrency(families, run.limits.parallelLlmCalls, async (family) => {
        const familyId = family.pairs[0].id;
        const note = await run.runner.paidStep(
          { stage: 'notes', name: 'synthesizeNote', summary: `step 4: note on ${family.columns.map((c) => `${c.table}.${c.column}`).join(', ')}`, llmCalls: 1 },
          (o) =>
            run.llm.synthesizeNote.executeWithOptions(o, [
              {
                databaseId: inspection.databaseId,
                versions: inspection.versions,
                dialect: inspection.dialect,
                familyId,
                columns: family.columns,
                pairIds: family.pairs.map((p) => p.id),
                maxPairsPerNote: run.config.exploration.maxPairsPerNote,
              },
            ]),
        );
        if (!note) return;
        noteIds.push(note.id);
        run.progress.update({ done: noteIds.length, detail: `note on ${familyId}` });
      }),
    () => `${noteIds.length} of ${families.length} family notes written`,
  );
  return noteIds.sort();
}
