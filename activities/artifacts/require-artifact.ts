import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactStore } from './artifact-store';

/** An artifact a step needs but another step should have written: a bug or a deleted store, never retried. */
export async function requireArtifact<T>(store: ArtifactStore, kind: string, key: string): Promise<T> {
  const value = await store.get<T>(kind, key);
  if (value === undefined) throw ApplicationFailure.nonRetryable(`artifact ${kind}/${key} is missing`, 'ArtifactMissing');
  return value;
}
