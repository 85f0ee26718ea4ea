import type { Embedder } from '../embeddings/embedder';
import type { Payload, VectorStore } from '../vectors/vector-store';

export interface TextPoint {
  id: string;
  text: string;
  payload: Payload;
}

/** Batches that keep one upsert around a millisecond in the embedded store and well inside Qdrant's request limits. */
const BATCH = 1_000;

/** Embeds texts and upserts them as points, batch by batch (memory stays bounded by one batch). */
export async function upsertEmbedded(deps: { embedder: Embedder; vectors: VectorStore }, collection: string, points: TextPoint[]): Promise<void> {
  for (let start = 0; start < points.length; start += BATCH) {
    const batch = points.slice(start, start + BATCH);
    const vectors = await deps.embedder.embed(batch.map((p) => p.text));
    await deps.vectors.upsert(
      collection,
      batch.map((p, i) => ({ id: p.id, vector: vectors[i], payload: p.payload })),
    );
  }
}
