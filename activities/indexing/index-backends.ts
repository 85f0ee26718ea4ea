import path from 'node:path';
import type { Embedder } from '../embeddings/embedder';
import { HashedEmbedder } from '../embeddings/hashed-embedder';
import { OpenAiEmbedder } from '../embeddings/openai-embedder';
import { EmbeddedVectorStore } from '../vectors/embedded-vector-store';
import { QdrantVectorStore } from '../vectors/qdrant-vector-store';
import type { VectorStore } from '../vectors/vector-store';

type Env = Record<string, string | undefined>;

/**
 * The embedder of the profile and value indices: the deterministic local one by default (no
 * download, no server), or an OpenAI-compatible `/v1/embeddings` endpoint when
 * DECODEX_EMBEDDING_MODEL is set (with DECODEX_EMBEDDING_BASE_URL, DECODEX_EMBEDDING_API_KEY
 * and DECODEX_EMBEDDING_DIMENSION, the model's vector length, checked on every answer).
 */
export function embedderFromEnv(env: Env): Embedder {
  const model = env.DECODEX_EMBEDDING_MODEL;
  if (!model) return new HashedEmbedder();
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
  if (env.QDRANT_URL) return new QdrantVectorStore({ url: env.QDRANT_URL, apiKey: env.QDRANT_API_KEY, namespace: env.DECODEX_QDRANT_PREFIX });
  return new EmbeddedVectorStore(path.join(home, 'vectors'));
}
