import type { DisambiguationNote } from '../../core/exploration/pair-types';
import type { PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import { ARTIFACT_KINDS, KIND_FAMILY, artifactKeys, collectionNames, collectionPrefix } from './preparation-artifacts';
import { requireArtifact, type PreparationDeps } from './preparation-deps';

/** The manifest to write (its collections follow from its versions), and the notes to gather. */
export interface PublishPreparationInput extends Omit<PreparedDatabaseManifest, 'collections'> {
  noteIds: string[];
}

export interface PublishPreparationOutput {
  manifest: PreparedDatabaseManifest;
  removedArtifacts: number;
  removedCollections: string[];
}

/**
 * Last step of `prepareDatabase`: gathers the notes into the database's note set, writes the
 * manifest (what online questions read first), and only then removes what older versions of
 * this database left behind — artifacts and vector collections — so a reader always finds
 * either the old complete set or the new one, and a changed database leaves nothing stale.
 */
export async function publishPreparation(deps: PreparationDeps, input: PublishPreparationInput): Promise<PublishPreparationOutput> {
  const { databaseId, versions } = input;
  const notes: DisambiguationNote[] = [];
  for (const id of input.noteIds) notes.push(await requireArtifact(deps.store, ARTIFACT_KINDS.note, artifactKeys.note(databaseId, versions, id)));
  await deps.store.put(ARTIFACT_KINDS.noteSet, artifactKeys.noteSet(databaseId, versions), notes);

  const collections = collectionNames(databaseId, versions);
  const { noteIds: _noteIds, ...fields } = input;
  const manifest: PreparedDatabaseManifest = { ...fields, collections };
  await deps.store.put(ARTIFACT_KINDS.manifest, databaseId, manifest);

  let removedArtifacts = 0;
  const keepNotes = new Set(input.noteIds.map((id) => artifactKeys.note(databaseId, versions, id)));
  for (const [name, family] of Object.entries(KIND_FAMILY)) {
    const kind = ARTIFACT_KINDS[name as keyof typeof KIND_FAMILY];
    const current = `${databaseId}/${versions[family]}`;
    for (const key of await deps.store.list(kind, `${databaseId}/`)) {
      const isCurrent = key === current || key.startsWith(`${current}/`);
      const staleNote = kind === ARTIFACT_KINDS.note && !keepNotes.has(key);
      if ((!isCurrent || staleNote) && (await deps.store.delete(kind, key))) removedArtifacts++;
    }
  }
  const removedCollections: string[] = [];
  for (const name of await deps.vectors.listCollections()) {
    if (name.startsWith(collectionPrefix(databaseId)) && name !== collections.profiles && name !== collections.values) {
      await deps.vectors.deleteCollection(name);
      removedCollections.push(name);
    }
  }
  return { manifest, removedArtifacts, removedCollections };
}
