import type { DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import { stringHash64Hex } from '../../core/string-hash';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { HashedEmbedder } from '../embeddings/hashed-embedder';
import type { VectorStore } from '../vectors/vector-store';
import { KNOWLEDGE_KINDS } from './knowledge-store';

/**
 * DecoSearch's decomposition knowledge base (§3.5): training questions paired with the
 * sub-question DAG that led to a correct answer, in the vector store, retrieved by the similarity
 * of the new question (k = 3 in the paper) to ground the decomposer. Questions are embedded with
 * the hashed n-gram embedder: no model, the same on every worker, so a knowledge base built on
 * one machine is read the same way everywhere. Examples from every build job accumulate in one
 * collection (one point per training database and question); the manifest says it exists.
 */
export interface DecompositionKbManifest {
  collection: string;
  embedder: string;
  updatedAt: string;
}

export interface DecompositionKbDeps {
  store: ArtifactStore;
  vectors: VectorStore;
}

const MANIFEST_KEY = 'index';
const questionEmbedder = new HashedEmbedder();
export const DECOMPOSITION_COLLECTION = `dx-knowledge-decompositions-${questionEmbedder.name.replace(/[^\w-]/g, '_')}`;

export const decompositionExampleId = (e: Pick<DecompositionExample, 'database' | 'question'>) => stringHash64Hex(`${e.database}\n${e.question}`);

/** Adds (or replaces) examples in the knowledge base. */
export async function storeDecompositionExamples(deps: DecompositionKbDeps, examples: DecompositionExample[]): Promise<void> {
  if (!examples.length) return;
  await deps.vectors.ensureCollection(DECOMPOSITION_COLLECTION, questionEmbedder.dimension);
  const vectors = await questionEmbedder.embed(examples.map((e) => e.question));
  await deps.vectors.upsert(
    DECOMPOSITION_COLLECTION,
    examples.map((e, i) => ({
      id: decompositionExampleId(e),
      vector: vectors[i],
      payload: { question: e.question, database: e.database, dag: JSON.stringify(e.dag), ...(e.evidence ? { evidence: e.evidence } : {}) },
    })),
  );
  const manifest: DecompositionKbManifest = { collection: DECOMPOSITION_COLLECTION, embedder: questionEmbedder.name, updatedAt: new Date().toISOString() };
  await deps.store.put(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY, manifest);
}

/** How many examples the knowledge base holds (0 when none was built). */
export async function countDecompositionExamples(deps: DecompositionKbDeps): Promise<number> {
  const manifest = await deps.store.get<DecompositionKbManifest>(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY);
  return manifest ? deps.vectors.count(manifest.collection) : 0;
}

/**
 * The k past decompositions whose questions are most similar to `question`, best first, for the
 * decomposer's prompt; [] when no knowledge base exists (the decomposer then works zero-shot).
 */
export async function retrieveDecompositionExamples(deps: DecompositionKbDeps, question: string, k: number): Promise<DecompositionExample[]> {
  const manifest = await deps.store.get<DecompositionKbManifest>(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY);
  if (!manifest || k <= 0) return [];
  const [vector] = await questionEmbedder.embed([question]);
  const hits = await deps.vectors.search(manifest.collection, vector, { k });
  return hits.map((h) => ({
    question: String(h.payload.question),
    database: String(h.payload.database),
    dag: JSON.parse(String(h.payload.dag)) as SubQuestionDag,
    ...(h.payload.evidence ? { evidence: String(h.payload.evidence) } : {}),
  }));
}
