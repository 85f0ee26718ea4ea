import type { DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { DecompositionRecord } from '../../core/knowledge/decomposition-kb-types';
import type { RunUsage } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { Embedder } from '../embeddings/embedder';
import type { VectorStore } from '../vectors/vector-store';
import { listDecompositionExamples, storeDecompositionExamples } from './decomposition-examples';

/**
 * The decomposition knowledge base job's records: one per question of its sample, keyed
 * `<job id>/<index>`, written last for the question, so its presence is what "done" means and a
 * resumed job hands out only the others. A record keeps what answering the question cost, from
 * which a resumed job's budget starts.
 */
const RECORDS = 'decomposition-kb-records';
const recordKey = (jobId: string, index: number) => `${jobId}/${String(index).padStart(7, '0')}`;

export type StoredDecompositionRecord = DecompositionRecord & { usage: RunUsage };

export const saveDecompositionRecord = (artifacts: ArtifactStore, jobId: string, record: StoredDecompositionRecord) =>
  artifacts.put(RECORDS, recordKey(jobId, record.index), record);

/** The indexes of the sample's questions the job has recorded. */
export async function recordedIndexes(artifacts: ArtifactStore, jobId: string): Promise<Set<number>> {
  return new Set((await artifacts.list(RECORDS, `${jobId}/`)).map((k) => Number(k.slice(jobId.length + 1))));
}

export async function decompositionRecords(artifacts: ArtifactStore, jobId: string): Promise<StoredDecompositionRecord[]> {
  const keys = await artifacts.list(RECORDS, `${jobId}/`);
  return (await Promise.all(keys.map((k) => artifacts.get<StoredDecompositionRecord>(RECORDS, k)))).filter(
    (r): r is StoredDecompositionRecord => r !== undefined,
  );
}

/**
 * A job under way, as data that travels: every record of every decomposition job in a home, and
 * the examples the home's base holds. Loaded into a fresh home, the same `build-knowledge
 * decompositions` command resumes after the recorded questions with the same base to retrieve
 * from. Replaying the model's answers alone does not resume it: each question's decomposer is
 * shown the examples stored before it, which depend on the order earlier questions finished in.
 * The sample is not carried: it is drawn again, the same, from the dataset and seed.
 */
export interface DecompositionJobCarry {
  records: { key: string; record: StoredDecompositionRecord }[];
  examples: DecompositionExample[];
}

export async function exportDecompositionJobs(deps: { store: ArtifactStore; vectors: VectorStore }): Promise<DecompositionJobCarry> {
  const keys = await deps.store.list(RECORDS);
  const records = await Promise.all(keys.map(async (key) => ({ key, record: (await deps.store.get<StoredDecompositionRecord>(RECORDS, key))! })));
  return { records, examples: await listDecompositionExamples(deps) };
}

/** Loads carried jobs into a home (a record or example already there under the same key or question is replaced). */
export async function importDecompositionJobs(
  deps: { store: ArtifactStore; vectors: VectorStore; embedder: Embedder },
  carry: DecompositionJobCarry,
): Promise<{ records: number; examples: number }> {
  await storeDecompositionExamples(deps, carry.examples);
  // Records last: a record says its question is done, so its example must already be there.
  for (const { key, record } of carry.records) await deps.store.put(RECORDS, key, record);
  return { records: carry.records.length, examples: carry.examples.length };
}
