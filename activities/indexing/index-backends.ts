import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../embeddings/embedder';
import { questionSearchText } from '../../core/indexing/retrieval-text';
import { ConcatenatedEmbedder } from '../embeddings/concatenated-embedder';
import { HashedEmbedder } from '../embeddings/hashed-embedder';
import { MINILM_MODEL_FILE, MiniLmEmbedder } from '../embeddings/minilm-embedder';
import { OpenAiEmbedder } from '../embeddings/openai-embedder';
import { EmbeddedVectorStore } from '../vectors/embedded-vector-store';
import { sameEmbedder, type IndexEmbedders } from '../embeddings/index-embedders';
import type { VectorStore } from '../vectors/vector-store';

type Env = Record<string, string | undefined>;

export const EMBEDDER_CHOICES = ['minilm', 'hashed', 'openai'] as const;
export type EmbedderChoice = (typeof EMBEDDER_CHOICES)[number];

/**
 * Which embedder DECODEX_EMBEDDER names: `minilm` (the local neural model for the profile
 * index, the hashed one for values), `hashed` (both indices lexical, no model file) or `openai`
 * (an OpenAI-compatible `/v1/embeddings` endpoint for both). Unset: `openai` when
 * DECODEX_EMBEDDING_MODEL is set (as before this setting existed), else `minilm` when `npm run
 * setup` installed its model, else `hashed`, as the local LLM falls back when no model is installed.
 */
export function embedderChoice(env: Env, minilmInstalled = existsSync(MINILM_MODEL_FILE)): EmbedderChoice {
  const named = env.DECODEX_EMBEDDER?.trim();
  if (named) {
    if (!(EMBEDDER_CHOICES as readonly string[]).includes(named)) {
      throw new Error(`DECODEX_EMBEDDER=${named} is not an embedder; choose one of ${EMBEDDER_CHOICES.join(', ')}`);
    }
    return named as EmbedderChoice;
  }
  if (env.DECODEX_EMBEDDING_MODEL) return 'openai';
  return minilmInstalled ? 'minilm' : 'hashed';
}

/**
 * The embedders of the profile and value indices (see IndexEmbedders for why they may differ).
 *
 * `minilm` searches profiles by an even blend of meaning (MiniLM on the words as written) and
 * spelling (the hashed embedder on stemmed terms): on Spider dev the neural model alone found
 * fewer gold columns than spelling alone (0.934 against 0.954: names there mostly repeat the
 * question's words), and spelling alone misses synonyms (Spider-Syn's train questions: 0.820
 * against 0.899 for the blend). On Spider train questions the even blend beat 0.35/0.65 either way
 * (bench:linking, 2026-12-01). Values stay on the hashed embedder: the neural model costs
 * milliseconds per text (npm run bench:embedders), and a Spider build embeds ~184k values.
 * Past questions (the decomposition knowledge base) are found by MiniLM alone, as DecoSearch does.
 */
export function indexEmbeddersFromEnv(env: Env): IndexEmbedders {
  switch (embedderChoice(env)) {
    case 'hashed':
      return sameEmbedder(new HashedEmbedder());
    case 'minilm':
      return { profiles: minilmProfileEmbedder(), profileText: 'sentences', values: new HashedEmbedder(), questions: new MiniLmEmbedder() };
    case 'openai':
      return sameEmbedder(openAiEmbedderFromEnv(env));
  }
}

function minilmProfileEmbedder(): Embedder {
  return new ConcatenatedEmbedder([
    { embedder: new HashedEmbedder(), weight: 0.5, text: questionSearchText },
    { embedder: new MiniLmEmbedder(), weight: 0.5 },
  ]);
}

/**
 * An OpenAI-compatible endpoint: DECODEX_EMBEDDING_MODEL with DECODEX_EMBEDDING_BASE_URL,
 * DECODEX_EMBEDDING_API_KEY and DECODEX_EMBEDDING_DIMENSION (the model's vector length,
 * checked on every answer).
 */
function openAiEmbedderFromEnv(env: Env): Embedder {
  const model = env.DECODEX_EMBEDDING_MODEL;
  if (!model) throw new Error('DECODEX_EMBEDDER=openai needs DECODEX_EMBEDDING_MODEL (and DECODEX_EMBEDDING_DIMENSION, DECODEX_EMBEDDING_BASE_URL)');
  const dimension = Number(env.DECODEX_EMBEDDING_DIMENSION);
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new Error(`DECODEX_EMBEDDING_MODEL=${model} needs DECODEX_EMBEDDING_DIMENSION (the length of its vectors)`);
  }
  return new OpenAiEmbedder({
    baseURL: env.DECODEX_EMBEDDING_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: env.DECODEX_EMBEDDING_API_KEY ?? env.OPENAI_API_KEY ?? 'none',
    model,
    dimension,
  });
}

/**
 * Qdrant when QDRANT_URL is set (shared by workers on several machines), else the embedded store
 * under `home`. DECODEX_QDRANT_PREFIX keeps deployments that share one server apart: collection
 * names derive from the database, so two deployments preparing the same database would
 * otherwise replace (and, on publish, delete) each other's collections.
 */
export function vectorStoreFromEnv(home: string, env: Env): VectorStore {
  if (env.QDRANT_URL) {
    // Required here, not imported: Qdrant's client is about 15 MB of a process that uses the embedded store.
    const { QdrantVectorStore } = require('../vectors/qdrant-vector-store') as typeof import('../vectors/qdrant-vector-store');
    return new QdrantVectorStore({ url: env.QDRANT_URL, apiKey: env.QDRANT_API_KEY, namespace: env.DECODEX_QDRANT_PREFIX });
  }
  return new EmbeddedVectorStore(path.join(home, 'vectors'));
}
