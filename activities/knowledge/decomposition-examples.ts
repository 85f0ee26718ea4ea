import type { DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import { stringHash64Hex } from '../../core/string-hash';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { Embedder } from '../embeddings/embedder';
import { EmbeddingError } from '../embeddings/embedding-error';
import type { Payload, VectorStore } from '../vectors/vector-store';
import { KNOWLEDGE_KINDS } from './knowledge-store';
import { withoutQuestion } from '../../core/knowledge/without-question';

/**
 * DecoSearch's decomposition knowledge base (§3.5): training questions paired with the
 * sub-question DAG that led to a correct answer, in the vector store, retrieved by the similarity
 * of the new question (k = 3 in the paper) to ground the decomposer. Questions are embedded by
 * meaning, as the paper does with all-MiniLM-L6-v2: the workers' question embedder (MiniLM when
 * `npm run setup` installed it; IndexEmbedders.questions). Spelling alone finds questions that
 * share words, not ones that ask the same thing. Examples from every build job accumulate in one
 * collection per embedder (one point per training database and question); the manifest names the
 * collection and embedder, and a worker embedding otherwise refuses it rather than compare vectors
 * of two spaces.
 */
export interface DecompositionKbManifest {
  collection: string;
  embedder: string;
  updatedAt: string;
}

export interface DecompositionKbDeps {
  store: ArtifactStore;
  vectors: VectorStore;
  /** Embeds questions by meaning (the same one stores and retrieves). */
  embedder: Embedder;
}

const MANIFEST_KEY = 'index';
export const decompositionCollection = (embedder: Embedder) => `dx-knowledge-decompositions-${embedder.name.replace(/[^\w-]/g, '_')}`;
/** Hits fetched beyond k, so that k remain once the question itself (and its copies) are left out. */
const OVERFETCH = 8;

export const decompositionExampleId = (e: Pick<DecompositionExample, 'database' | 'question'>) => stringHash64Hex(`${e.database}\n${e.question}`);

/** Adds (or replaces) examples in the knowledge base. */
export async function storeDecompositionExamples(deps: DecompositionKbDeps, examples: DecompositionExample[]): Promise<void> {
  if (!examples.length) return;
  const collection = decompositionCollection(deps.embedder);
  await deps.vectors.ensureCollection(collection, deps.embedder.dimension);
  const vectors = await deps.embedder.embed(examples.map((e) => e.question));
  await deps.vectors.upsert(
    collection,
    examples.map((e, i) => ({
      id: decompositionExampleId(e),
      vector: vectors[i],
      payload: { question: e.question, database: e.database, dag: JSON.stringify(e.dag), ...(e.evidence ? { evidence: e.evidence } : {}) },
    })),
  );
  const manifest: DecompositionKbManifest = { collection, embedder: deps.embedder.name, updatedAt: new Date().toISOString() };
  await deps.store.put(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY, manifest);
}

/** How many examples the knowledge base holds (0 when none was built). */
export async function countDecompositionExamples(deps: Omit<DecompositionKbDeps, 'embedder'>): Promise<number> {
  const manifest = await deps.store.get<DecompositionKbManifest>(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY);
  return manifest ? deps.vectors.count(manifest.collection) : 0;
}

/**
 * The k past decompositions whose questions are most similar in meaning to `question`, best first,
 * for the decomposer's prompt, never the question itself (nor another copy of it: a training
 * question must not be shown its own plan), nor any of `withheldDatabase`; [] when no knowledge
 * base exists (zero-shot).
 */
export async function retrieveDecompositionExamples(
  deps: DecompositionKbDeps,
  question: string,
  k: number,
  withheldDatabase?: string,
): Promise<DecompositionExample[]> {
  const manifest = await deps.store.get<DecompositionKbManifest>(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY);
  if (!manifest || k <= 0) return [];
  if (manifest.embedder !== deps.embedder.name) {
    throw new EmbeddingError(
      `the decomposition knowledge base was embedded with ${manifest.embedder}, this worker embeds questions with ${deps.embedder.name}: ` +
        'rebuild it (`decodex build-knowledge decompositions`) or run the worker with the embedder it was built with (DECODEX_EMBEDDER)',
      false,
    );
  }
  const [vector] = await deps.embedder.embed([question]);
  const hits = await deps.vectors.search(manifest.collection, vector, { k: (k + OVERFETCH) * (withheldDatabase ? 4 : 1) });
  return withoutQuestion(question, hits.map(exampleOf), withheldDatabase).slice(0, k);
}

/** Every example of the knowledge base, ordered by database and question ([] when none was built): what it holds, to carry it elsewhere. */
export async function listDecompositionExamples(deps: Omit<DecompositionKbDeps, 'embedder'>): Promise<DecompositionExample[]> {
  const manifest = await deps.store.get<DecompositionKbManifest>(KNOWLEDGE_KINDS.decompositions, MANIFEST_KEY);
  if (!manifest) return [];
  const examples = (await deps.vectors.payloads(manifest.collection)).map(exampleOf);
  return examples.sort((a, b) => a.database.localeCompare(b.database) || a.question.localeCompare(b.question));
}

function exampleOf(point: { payload: Payload }): DecompositionExample {
  const { payload } = point;
  return {
    question: String(payload.question),
    database: String(payload.database),
    dag: JSON.parse(String(payload.dag)) as SubQuestionDag,
    ...(payload.evidence ? { evidence: String(payload.evidence) } : {}),
  };
}
