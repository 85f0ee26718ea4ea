import { QdrantClient } from '@qdrant/js-client-rest';

/**
 * Waits until Qdrant has built its HNSW index over a collection (status green, every vector
 * indexed or left in segments small enough to scan), so query times measure the index, not
 * unindexed segments searched by brute force. Returns the seconds waited.
 */
export async function waitUntilIndexed(url: string, collection: string, timeoutMs = 30 * 60_000): Promise<number> {
  const client = new QdrantClient({ url, checkCompatibility: false });
  const started = performance.now();
  let greenInARow = 0;
  while (performance.now() - started < timeoutMs) {
    const info = await client.getCollection(collection);
    // Optimisations start shortly after the last write: one green answer may precede them.
    greenInARow = info.status === 'green' ? greenInARow + 1 : 0;
    if (greenInARow >= 3) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Qdrant did not finish indexing ${collection} within ${timeoutMs / 1000} s`);
}
