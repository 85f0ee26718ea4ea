import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import type { TargetDatabase } from '../database/target-database';
import type { IndexEmbedders } from '../indexing/index-embedders';
import type { VectorStore } from '../vectors/vector-store';

/** What the preparation activities need: the databases, where artifacts and vectors go, and each index's embedder. */
export interface PreparationDeps {
  databases: DatabaseRegistry;
  store: ArtifactStore;
  embedders: IndexEmbedders;
  vectors: VectorStore;
}

/** A database that cannot be opened will not open on a retry either: fail the run at once. */
export function openDatabaseOrFail(databases: DatabaseRegistry, reference: string): Promise<TargetDatabase> {
  return databases.openOrFail(reference);
}

/** An artifact a step needs but another step should have written: a bug or a deleted store, never retried. */
export async function requireArtifact<T>(store: ArtifactStore, kind: string, key: string): Promise<T> {
  const value = await store.get<T>(kind, key);
  if (value === undefined) throw ApplicationFailure.nonRetryable(`artifact ${kind}/${key} is missing`, 'ArtifactMissing');
  return value;
}
