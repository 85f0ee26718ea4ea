import type { Payload, VectorPoint, VectorStore } from '../activities/vectors/vector-store';

/** Points per upsert call, as the value index writes them (activities/indexing/upsert-embedded). */
const UPSERT_BATCH = 1_000;

/** Upserts every point in production-sized batches; returns the seconds it took. */
export async function timeUpserts(store: VectorStore, collection: string, points: VectorPoint[]): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < points.length; start += UPSERT_BATCH) {
    await store.upsert(collection, points.slice(start, start + UPSERT_BATCH));
  }
  return (performance.now() - started) / 1000;
}

export interface QueryTiming {
  /** Milliseconds per query, in query order. */
  ms: number[];
  /** The ids each query returned, best first. */
  hits: string[][];
}

/** Runs the queries one at a time (as retrieval does), top `k`, each with its filter if given. */
export async function timeQueries(store: VectorStore, collection: string, queries: Float32Array[], k: number, filters?: Payload[]): Promise<QueryTiming> {
  const ms: number[] = [];
  const hits: string[][] = [];
  for (const [i, query] of queries.entries()) {
    const started = performance.now();
    const found = await store.search(collection, query, { k, filter: filters?.[i] });
    ms.push(performance.now() - started);
    hits.push(found.map((h) => h.id));
  }
  return { ms, hits };
}
