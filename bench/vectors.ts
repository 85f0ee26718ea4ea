/**
 * The two vector stores on the same data: every distinct text value of the shipped Spider
 * databases (at most 10,000 per column, as DexterSQL §3.1.2 bounds it; about 184k points),
 * embedded once by the default embedder, then upserted into the embedded store and into a
 * Qdrant server process of its own, and searched top-10 with question-like literals
 * (lower-cased, one letter dropped). Recall@10 is measured against an exact brute-force search
 * independent of both stores.
 *
 *   npm run bench:vectors [-- --values N] [--searches 1000] [--recall-queries 200]
 *
 * Prints `name: value` lines. All values go into one collection: the worst case for search
 * (a real build keeps one collection per database); `search_filtered_ms_p50` shows the
 * embedded store narrowing to one database by payload filter. Qdrant is found like the tests
 * find it (QDRANT_BIN, ../shared/bin/qdrant, PATH); its memory is the server process's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { QdrantVectorStore } from '../activities/vectors/qdrant-vector-store';
import type { VectorPoint } from '../activities/vectors/vector-store';
import { percentile } from '../core/benchmark/percentiles';
import { findQdrantBinary, startQdrant } from '../devkit/qdrant';
import { ExactTopK } from './exact-top-k';
import { peakRssKib, rssKib } from './process-stats';
import { waitUntilIndexed } from './qdrant-indexed';
import { asQuestionLiteral, collectSpiderValues, padTo } from './spider-values';
import { timeQueries, timeUpserts } from './vector-store-timing';

const K = 10;
const COLLECTION = 'values';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const mib = (kib: number) => Math.round(kib / 1024);
const ms = (values: number[], p: number) => (percentile(values, p) ?? Number.NaN).toFixed(2);

async function main(): Promise<void> {
  const binary = findQdrantBinary();
  if (!('path' in binary)) throw new Error(`bench:vectors compares with Qdrant: ${binary.missing}`);
  const asked = argument('values', Number.POSITIVE_INFINITY);
  const searchCount = argument('searches', 1_000);
  const recallCount = argument('recall-queries', 200);

  const collected = collectSpiderValues(asked);
  const values = Number.isFinite(asked) ? padTo(collected, asked) : collected;
  if (collected.length < values.length) console.error(`spider gave ${collected.length} values; padded to ${values.length}`);
  const embedder = new HashedEmbedder();
  const embedStarted = performance.now();
  const vectors = await embedder.embed(values.map((v) => v.value));
  const embedSeconds = (performance.now() - embedStarted) / 1000;
  // A padded value can equal a real one: one point per id, as the stores keep them.
  const byId = new Map<string, VectorPoint>();
  values.forEach((v, i) => {
    const id = `${v.db}.${v.table}.${v.column}:${v.value}`;
    byId.set(id, { id, vector: vectors[i], payload: { db: v.db, table: v.table, column: v.column, value: v.value } });
  });
  const points = [...byId.values()];

  const targets = Array.from({ length: searchCount }, (_, i) => values[(i * 7919) % values.length]);
  const queries = await embedder.embed(targets.map((t, i) => asQuestionLiteral(t.value, i)));

  // Embedded store: its memory is what it adds to this (the worker's) process.
  const directory = mkdtempSync(join(tmpdir(), 'decodex-bench-vectors-'));
  const rssBefore = process.memoryUsage().rss;
  const embedded = new EmbeddedVectorStore(directory);
  let embeddedUpsertSeconds: number;
  let embeddedHits: string[][];
  try {
    await embedded.ensureCollection(COLLECTION, embedder.dimension);
    embeddedUpsertSeconds = await timeUpserts(embedded, COLLECTION, points);
    console.log(`values_indexed: ${await embedded.count(COLLECTION)}`);
    console.log(`values_per_second: ${Math.round(values.length / (embedSeconds + embeddedUpsertSeconds))}`);
    console.log(`embedded_upsert_per_second: ${Math.round(points.length / embeddedUpsertSeconds)}`);
    // The first search loads the collection from disk into memory: timed apart.
    const loadStarted = performance.now();
    await embedded.search(COLLECTION, embedder.embedOne('warm up'), { k: K });
    const loadMs = performance.now() - loadStarted;
    const plain = await timeQueries(embedded, COLLECTION, queries, K);
    const filtered = await timeQueries(
      embedded,
      COLLECTION,
      queries,
      K,
      targets.map((t) => ({ db: t.db })),
    );
    embeddedHits = plain.hits;
    console.log(`search_ms_p50: ${ms(plain.ms, 50)}`);
    console.log(`search_ms_p95: ${ms(plain.ms, 95)}`);
    console.log(`search_filtered_ms_p50: ${ms(filtered.ms, 50)}`);
    console.log(`embedded_query_ms_p50: ${ms(plain.ms, 50)}`);
    console.log(`index_load_ms: ${loadMs.toFixed(0)}`);
    console.log(`embedded_rss_mib: ${Math.round((process.memoryUsage().rss - rssBefore) / 1024 / 1024)}`);
  } finally {
    await embedded.close();
    rmSync(directory, { recursive: true, force: true });
  }

  // Qdrant: its own server process, the production client and settings (HNSW, not exact).
  const server = await startQdrant(binary.path);
  let qdrantHits: string[][];
  try {
    const idleKib = rssKib(server.pid());
    const qdrant = new QdrantVectorStore({ url: server.url });
    await qdrant.ensureCollection(COLLECTION, embedder.dimension);
    const qdrantUpsertSeconds = await timeUpserts(qdrant, COLLECTION, points);
    const indexSeconds = await waitUntilIndexed(server.url, COLLECTION);
    await qdrant.search(COLLECTION, embedder.embedOne('warm up'), { k: K });
    const timed = await timeQueries(qdrant, COLLECTION, queries, K);
    qdrantHits = timed.hits;
    console.log(`qdrant_points: ${await qdrant.count(COLLECTION)}`);
    console.log(`qdrant_upsert_per_second: ${Math.round(points.length / qdrantUpsertSeconds)}`);
    console.log(`qdrant_index_seconds: ${indexSeconds.toFixed(1)}`);
    console.log(`qdrant_query_ms_p50: ${ms(timed.ms, 50)}`);
    console.log(`qdrant_query_ms_p95: ${ms(timed.ms, 95)}`);
    console.log(`qdrant_idle_rss_mib: ${mib(idleKib)}`);
    console.log(`qdrant_rss_mib: ${mib(rssKib(server.pid()))}`);
    console.log(`qdrant_peak_rss_mib: ${mib(peakRssKib(server.pid()))}`);
  } finally {
    await server.dispose();
  }

  const exact = new ExactTopK(
    points.map((p) => p.id),
    points.map((p) => p.vector as Float32Array),
  );
  let embeddedRecall = 0;
  let qdrantRecall = 0;
  const recallQueries = Math.min(recallCount, queries.length);
  for (let i = 0; i < recallQueries; i++) {
    const kth = exact.kthScore(queries[i], K);
    embeddedRecall += exact.recall(queries[i], embeddedHits[i], K, kth);
    qdrantRecall += exact.recall(queries[i], qdrantHits[i], K, kth);
  }
  console.log(`recall_queries: ${recallQueries}`);
  console.log(`embedded_recall_at_10: ${(embeddedRecall / recallQueries).toFixed(4)}`);
  console.log(`qdrant_recall_at_10: ${(qdrantRecall / recallQueries).toFixed(4)}`);
  console.log(`peak_rss_mib: ${Math.round(process.resourceUsage().maxRSS / 1024)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
