import { renderPairEvidence } from '../../core/exploration/exploration-text';
import type { DisambiguationNote, PairEvidence } from '../../core/exploration/pair-types';
import { columnKey, type ColumnRef } from '../../core/preparation/column-ref';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { renderColumnProfile } from '../../core/profiling/profile-text';
import type { LlmCallUsage } from '../../core/usage';
import { loadPreparedProfiles, profileOf } from '../prepared/load-prepared';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { requireArtifact } from '../artifacts/require-artifact';
import { askModel } from '../prompts/ask-model';
import type { ExplorationLlmDeps } from './triage-ambiguous-pair';

export interface SynthesizeNoteInput {
  databaseId: string;
  versions: PreparationVersions;
  dialect: string;
  /** The family's id: its first pair's id. */
  familyId: string;
  columns: ColumnRef[];
  pairIds: string[];
  maxPairsPerNote: number;
}

export interface SynthesizeNoteOutput {
  id: string;
  columns: ColumnRef[];
  pairIds: string[];
  /** The note's first words, for the Web UI; the note itself is in the artifact store. */
  preview: string;
  usage: LlmCallUsage;
}

/**
 * DexterSQL §3.1.3 Step 4 for one family of confirmed pairs that share columns: the model
 * turns the measured evidence into one note on what each column is and when to use it. The
 * evidence of at most `maxPairsPerNote` pairs is quoted (a family of ten same-named columns
 * has 45 pairs); the note is stored, the payload carries its id.
 */
export async function synthesizeNote(deps: ExplorationLlmDeps, input: SynthesizeNoteInput): Promise<SynthesizeNoteOutput> {
  const { columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const quoted = input.pairIds.slice(0, input.maxPairsPerNote);
  const evidence: PairEvidence[] = [];
  for (const pairId of quoted) {
    evidence.push(await requireArtifact(deps.store, ARTIFACT_KINDS.pairEvidence, artifactKeys.pairEvidence(input.databaseId, input.versions, pairId)));
  }
  const omitted = input.pairIds.length - quoted.length;
  const answer = await askModel(deps.llm, 'synthesize-note', {
    dialect: input.dialect,
    columns: input.columns.map((c) => `- ${columnKey(c)}`).join('\n'),
    profiles: input.columns.map((c) => renderColumnProfile(profileOf(columns, c))).join('\n\n'),
    evidence: evidence.map(renderPairEvidence).join('\n\n') + (omitted > 0 ? `\n\n(${omitted} more pairs of this family not shown.)` : ''),
  });
  const note: DisambiguationNote = {
    id: input.familyId,
    columns: input.columns,
    pairIds: input.pairIds,
    note: answer.value.note.trim(),
    usage: answer.usage,
  };
  await deps.store.put(ARTIFACT_KINDS.note, artifactKeys.note(input.databaseId, input.versions, input.familyId), note);
  return { id: note.id, columns: note.columns, pairIds: note.pairIds, preview: note.note.slice(0, 160), usage: note.usage! };
}
