import type { StoredNodeResult } from '../../core/dag/node-results';
import type { ArtifactStore } from '../artifacts/artifact-store';

/**
 * Node results of sub-question DAGs, in the artifact store (shared by every worker that shares
 * the store). Keys start with the workflow run, so a run's results are listed and removed
 * together when the route ends.
 */
export const NODE_RESULTS_KIND = 'dag-node-results';

/** The reference of a node accepted without rows (its SQL never ran): an empty input downstream. */
export const NO_ROWS_REF = '';

export async function loadNodeResult(store: ArtifactStore, ref: string): Promise<StoredNodeResult> {
  if (ref === NO_ROWS_REF) return { columns: [], rows: [], truncated: false };
  const stored = await store.get<StoredNodeResult>(NODE_RESULTS_KIND, ref);
  if (!stored) throw new Error(`the result of an upstream node is missing from the artifact store (${ref})`);
  return stored;
}

/** The stored rows of several nodes, read at once. */
export function loadNodeResults(store: ArtifactStore, refs: string[]): Promise<StoredNodeResult[]> {
  return Promise.all(refs.map((ref) => loadNodeResult(store, ref)));
}

export function saveNodeResult(store: ArtifactStore, ref: string, result: StoredNodeResult): Promise<void> {
  return store.put(NODE_RESULTS_KIND, ref, result);
}

/** Removes every stored node result of one run (`prefix` is the run's key prefix); how many were removed. */
export async function forgetNodeResults(store: ArtifactStore, prefix: string): Promise<number> {
  const keys = await store.list(NODE_RESULTS_KIND, prefix);
  for (const key of keys) await store.delete(NODE_RESULTS_KIND, key);
  return keys.length;
}
