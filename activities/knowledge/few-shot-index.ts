import { mostSimilarByShape, questionShapeText } from '../../core/knowledge/structural-similarity';
import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import { sqlSkeleton } from '../../core/knowledge/sql-skeleton';
import { withoutQuestion } from '../../core/knowledge/without-question';
import { stringHash64Hex } from '../../core/string-hash';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { HashedEmbedder } from '../embeddings/hashed-embedder';
import type { VectorStore } from '../vectors/vector-store';
import { KNOWLEDGE_KINDS } from './knowledge-store';

/**
 * DexterSQL's few-shot index (§3.3.2): training questions with their SQL and SQL skeleton in the
 * vector store, found by *structural* similarity. A question is embedded by its shape
 * (core/knowledge/structural-similarity.ts: values masked, words and word pairs) with the hashed
 * n-gram embedder, which needs no model and is the same on every worker; the nearest shapes are
 * then re-ranked by the exact shape overlap. The manifest names the collection readers use, so a
 * rebuild switches readers at once.
 */
export interface FewShotIndexManifest {
  collection: string;
  count: number;
  embedder: string;
  builtAt: string;
  sources: string[];
}

export interface FewShotIndexDeps {
  store: ArtifactStore;
  vectors: VectorStore;
}

const MANIFEST_KEY = 'index';
/** Candidates fetched per example wanted, before the exact re-ranking. */
const OVERFETCH = 8;
const shapeEmbedder = new HashedEmbedder();

export const fewShotCollection = (version: string) => `dx-knowledge-few-shot-${version}`;
export const fewShotEmbedderName = () => shapeEmbedder.name;

export function loadFewShotManifest(store: ArtifactStore): Promise<FewShotIndexManifest | undefined> {
  return store.get<FewShotIndexManifest>(KNOWLEDGE_KINDS.fewShot, MANIFEST_KEY);
}

/** Upserts examples into a collection (ids from the example's text, so a repeated page writes the same points). */
export async function indexFewShotExamples(vectors: VectorStore, collection: string, examples: FewShotExample[]): Promise<void> {
  if (!examples.length) return;
  await vectors.ensureCollection(collection, shapeEmbedder.dimension);
  const embedded = await shapeEmbedder.embed(examples.map((e) => questionShapeText(e.question)));
  await vectors.upsert(
    collection,
    examples.map((e, i) => ({
      id: stringHash64Hex(`${e.database}\n${e.question}\n${e.sql}`),
      vector: embedded[i],
      payload: {
        question: e.question,
        sql: e.sql,
        skeleton: e.skeleton ?? sqlSkeleton(e.sql),
        database: e.database,
        ...(e.evidence ? { evidence: e.evidence } : {}),
      },
    })),
  );
}

/** Makes a built collection the one readers use, and removes the collection it replaces. */
export async function publishFewShotIndex(deps: FewShotIndexDeps, manifest: FewShotIndexManifest): Promise<void> {
  const previous = await loadFewShotManifest(deps.store);
  await deps.store.put(KNOWLEDGE_KINDS.fewShot, MANIFEST_KEY, manifest);
  if (previous && previous.collection !== manifest.collection) await deps.vectors.deleteCollection(previous.collection);
}

/** Indexes and publishes a whole example set at once (small sets; the buildFewShotIndex job pages large ones). */
export async function storeFewShotExamples(deps: FewShotIndexDeps, examples: FewShotExample[], source = 'direct'): Promise<FewShotIndexManifest> {
  const collection = fewShotCollection(stringHash64Hex(JSON.stringify(examples)).slice(0, 12));
  await indexFewShotExamples(deps.vectors, collection, examples);
  const manifest = { collection, count: examples.length, embedder: shapeEmbedder.name, builtAt: new Date().toISOString(), sources: [source] };
  await publishFewShotIndex(deps, manifest);
  return manifest;
}

/**
 * The k training examples most similar in structure to the question ([] when no index exists),
 * never the question itself nor a copy of its text (its gold SQL would be its own example), nor
 * any example of `withheldDatabase` (core/knowledge/without-question.ts).
 */
export async function retrieveFewShotExamples(deps: FewShotIndexDeps, question: string, k: number, withheldDatabase?: string): Promise<FewShotExample[]> {
  const manifest = await loadFewShotManifest(deps.store);
  if (!manifest || manifest.count === 0 || k <= 0) return [];
  const [vector] = await shapeEmbedder.embed([questionShapeText(question)]);
  // A withheld database's questions are often the nearest shapes: fetch more so k others remain.
  const hits = await deps.vectors.search(manifest.collection, vector, { k: k * OVERFETCH * (withheldDatabase ? 4 : 1) });
  const examples: FewShotExample[] = hits.map((h) => ({
    question: String(h.payload.question),
    sql: String(h.payload.sql),
    skeleton: String(h.payload.skeleton),
    database: String(h.payload.database),
    ...(h.payload.evidence ? { evidence: String(h.payload.evidence) } : {}),
  }));
  return mostSimilarByShape(question, withoutQuestion(question, examples, withheldDatabase), k);
}
