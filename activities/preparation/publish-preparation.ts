import { ApplicationFailure } from '@temporalio/common';
import type { DisambiguationNote } from '../../core/exploration/pair-types';
import type { PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import { ARTIFACT_KINDS, KIND_FAMILY, artifactKeys, collectionNames, collectionPrefix } from '../prepared/preparation-artifacts';
import { type PreparationDeps } from '../prepared/preparation-deps';
import { requireArtifact } from '../artifacts/require-artifact';
import { missingParts } from './verify-prepared-version';

/** How long a publication waits for another one of the same database (a lock timeout is retried). */
const PUBLISH_LOCK_WAIT_MS = 60_000;

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
 *
 * Workers on several machines may prepare one database at once (two first questions, or a
 * `decodex prepare` with another configuration). Publications of a database therefore run one
 * at a time under the artifact store's lock, and each first checks that its version is still
 * whole: a concurrent publication of another version removes it, and a manifest naming it
 * would send readers to missing artifacts. Such a run fails (PreparationSuperseded) and the
 * other version stays published, complete; two runs of the same version both publish it.
 */
export function publishPreparation(deps: PreparationDeps, input: PublishPreparationInput): Promise<PublishPreparationOutput> {
  return deps.store.withLock(`publish:${input.databaseId}`, PUBLISH_LOCK_WAIT_MS, async () => {
    const missing = await missingParts(deps, input.databaseId, input.versions, input.noteIds);
    if (missing.length) {
      const current = await deps.store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, input.databaseId);
      throw ApplicationFailure.nonRetryable(
        `cannot publish version ${input.versions.exploration} of ${input.databaseId}: ${missing.slice(0, 3).join('; ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''} ` +
          `no longer in the stores. Another preparation of this database published ${current ? `version ${current.versions.exploration} (${current.preparedAt})` : 'another version'} meanwhile and removed this one; ` +
          'that version stays current. Prepare again to publish this configuration.',
        'PreparationSuperseded',
      );
    }
    return publishWhole(deps, input);
  });
}

async function publishWhole(deps: PreparationDeps, input: PublishPreparationInput): Promise<PublishPreparationOutput> {
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
