import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ArtifactStore } from '../activities/artifacts/artifact-store';
import type { VectorStore } from '../activities/vectors/vector-store';
import { indexEmbeddersFromEnv, vectorStoreFromEnv } from '../activities/indexing/index-backends';
import { exportKnowledge, importKnowledge, isEmptyKnowledge, knowledgeFingerprint, type KnowledgeBundle } from '../activities/knowledge/knowledge-bundle';

/**
 * The learned knowledge carried with the repository (`bench/carry/knowledge.json.gz`): what the
 * offline jobs built from Spider train with the local model (the decomposition knowledge base,
 * the mined correction rules), as a gzipped JSON knowledge bundle. Building it takes CPU-hours;
 * loading it into a bench home takes seconds, so a fresh clone's bench runs with the same
 * knowledge as the machine that built it.
 */
export const CARRIED_KNOWLEDGE = path.join(__dirname, 'carry', 'knowledge.json.gz');

/** The bundle in `file`; an empty one when the file does not exist. Throws, naming the file, on anything else. */
export function readKnowledgeFile(file: string): KnowledgeBundle {
  if (!existsSync(file)) return { decompositions: [], rules: [] };
  let bundle: Partial<KnowledgeBundle>;
  try {
    bundle = readGzippedJson<Partial<KnowledgeBundle>>(file);
  } catch (err) {
    throw new Error(`${file} is not a gzipped JSON knowledge bundle (${(err as Error).message}); pass --knowledge '' to run without one`);
  }
  const examplesOk =
    Array.isArray(bundle.decompositions) &&
    bundle.decompositions.every((e) => typeof e?.question === 'string' && typeof e.database === 'string' && Array.isArray(e.dag?.nodes));
  const rulesOk = Array.isArray(bundle.rules) && bundle.rules.every((r) => typeof r?.id === 'string' && typeof r.fix === 'string');
  if (!examplesOk || !rulesOk)
    throw new Error(`${file} is not a knowledge bundle {decompositions: [{question, database, dag}], rules: [{id, gist, badPattern, correctPattern, fix}]}`);
  return bundle as KnowledgeBundle;
}

/** Writes the bundle (replacing the file whole, so a crash leaves the old one). */
export function writeKnowledgeFile(file: string, bundle: KnowledgeBundle): void {
  writeGzippedJson(file, bundle);
}

/** The gzipped JSON in `file` (throws on a missing file or one that is not gzipped JSON). */
export function readGzippedJson<T>(file: string): T {
  return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as T;
}

/** Runs `work` with the vector store the home's environment names, closed after it. */
export async function withHomeVectors<T>(home: string, env: NodeJS.ProcessEnv, work: (vectors: VectorStore) => Promise<T>): Promise<T> {
  const vectors = vectorStoreFromEnv(home, env);
  try {
    return await work(vectors);
  } finally {
    await vectors.close();
  }
}

/** Writes `value` as gzipped JSON, replacing the file whole (a crash leaves the old one). */
export function writeGzippedJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  writeFileSync(partial, gzipSync(`${JSON.stringify(value, null, 1)}\n`));
  renameSync(partial, file);
}

/** The knowledge a home holds (its artifact store and the vector store its environment names). */
export async function exportHomeKnowledge(home: string, store: ArtifactStore, env: NodeJS.ProcessEnv): Promise<KnowledgeBundle> {
  return withHomeVectors(home, env, (vectors) => exportKnowledge({ store, vectors }));
}

/**
 * The bundle with one part only (`carry-knowledge.ts export FILE --only rules|decompositions`), the
 * other empty; null keeps both. A job still under way stays out of what is carried until it ends.
 */
export function bundlePart(bundle: KnowledgeBundle, only: string | null): KnowledgeBundle {
  if (only === null) return bundle;
  if (only === 'rules') return { decompositions: [], rules: bundle.rules };
  if (only === 'decompositions') return { decompositions: bundle.decompositions, rules: [] };
  throw new Error(`--only takes rules or decompositions, got "${only}"`);
}

/** Loads a bundle into a home, its examples embedded with the question embedder the home's workers use. */
export async function importHomeKnowledge(
  home: string,
  store: ArtifactStore,
  env: NodeJS.ProcessEnv,
  bundle: KnowledgeBundle,
): Promise<{ decompositions: number; rules: number }> {
  return withHomeVectors(home, env, (vectors) => importKnowledge({ store, vectors, embedder: indexEmbeddersFromEnv(env).questions }, bundle));
}

/**
 * `--knowledge`: a bundle file ('' for none; a missing file is none) is loaded into the home; returns
 * the fingerprint of what the home then holds (undefined: nothing), which goes into every
 * benchmark id, so a home given knowledge earlier says so too.
 */
export async function loadLearnedKnowledge(
  home: string,
  store: ArtifactStore,
  file: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<string | undefined> {
  const bundle = file ? readKnowledgeFile(file) : null;
  if (bundle && !isEmptyKnowledge(bundle)) {
    const loaded = await importHomeKnowledge(home, store, env, bundle);
    log(`${loaded.decompositions} decomposition examples and ${loaded.rules} correction rules loaded into the home (${file})`);
  }
  const held = await exportHomeKnowledge(home, store, env);
  return isEmptyKnowledge(held) ? undefined : knowledgeFingerprint(held);
}
