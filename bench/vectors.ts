/**
 * Value-index throughput on real data: embeds and upserts distinct text values from the Spider
 * databases (at most 10,000 per column, as DexterSQL §3.1.2 bounds it) into the embedded store,
 * then times top-10 searches with question-like literals (lower-cased, one letter dropped).
 *
 *   npx tsx bench/vectors.ts [--values 150000] [--searches 1000]
 *
 * Prints `name: value` lines. All values go into one collection: the worst case for search
 * (a real build keeps one collection per database); `search_filtered_ms_p50` shows the cost of
 * narrowing to one database by payload filter.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import type { VectorPoint } from '../activities/vectors/vector-store';

const SPIDER_DATABASES = join(datasetsRoot(), 'spider', 'database');
const VALUES_PER_COLUMN = 10_000;
const UPSERT_BATCH = 1_000;

interface ColumnValue {
  db: string;
  table: string;
  column: string;
  value: string;
}

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** Distinct non-empty text cells, database by database, until `limit` values are collected. */
function collectSpiderValues(limit: number): ColumnValue[] {
  const values: ColumnValue[] = [];
  for (const db of readdirSync(SPIDER_DATABASES).sort()) {
    const file = join(SPIDER_DATABASES, db, `${db}.sqlite`);
    if (!existsSync(file)) continue;
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const tables = sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .pluck()
        .all() as string[];
      for (const table of tables) {
        const columns = (sqlite.pragma(`table_info(${quote(table)})`) as { name: string }[]).map((c) => c.name);
        for (const column of columns) {
          const cells = sqlite
            .prepare(
              `SELECT DISTINCT ${quote(column)} FROM ${quote(table)} ` +
                `WHERE typeof(${quote(column)}) = 'text' AND trim(${quote(column)}) <> '' LIMIT ${VALUES_PER_COLUMN}`,
            )
            .pluck()
            .all() as string[];
          for (const value of cells) {
            values.push({ db, table, column, value });
            if (values.length >= limit) return values;
          }
        }
      }
    } catch (error) {
      // A few Spider files have tables whose declared columns do not match their data; skip them.
      console.error(`skipped ${db}: ${(error as Error).message}`);
    } finally {
      sqlite.close();
    }
  }
  return values;
}

/** Repeats the collected values with a suffix when the corpus is smaller than asked. */
function padTo(values: ColumnValue[], count: number): ColumnValue[] {
  const padded = values.slice(0, count);
  for (let round = 1; padded.length < count; round++) {
    for (const v of values) {
      if (padded.length >= count) break;
      padded.push({ ...v, value: `${v.value} ${round}` });
    }
  }
  return padded;
}

/** A question-like literal: lower-cased, one interior letter dropped (a typo). */
function asQuestionLiteral(value: string, seed: number): string {
  const lower = value.toLowerCase();
  if (lower.length < 5) return lower;
  const drop = 1 + (seed % (lower.length - 2));
  return lower.slice(0, drop) + lower.slice(drop + 1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function main(): Promise<void> {
  const valueCount = argument('values', 150_000);
  const searchCount = argument('searches', 1_000);
  const collected = collectSpiderValues(valueCount);
  const values = padTo(collected, valueCount);
  if (collected.length < valueCount) console.error(`spider gave ${collected.length} values; padded to ${valueCount}`);

  const directory = mkdtempSync(join(tmpdir(), 'decodex-bench-vectors-'));
  const embedder = new HashedEmbedder();
  const store = new EmbeddedVectorStore(directory);
  try {
    await store.ensureCollection('values', embedder.dimension);

    const started = performance.now();
    for (let start = 0; start < values.length; start += UPSERT_BATCH) {
      const batch = values.slice(start, start + UPSERT_BATCH);
      const vectors = await embedder.embed(batch.map((v) => v.value));
      const points: VectorPoint[] = batch.map((v, i) => ({
        id: `${v.db}.${v.table}.${v.column}:${v.value}`,
        vector: vectors[i],
        payload: { db: v.db, table: v.table, column: v.column, value: v.value },
      }));
      await store.upsert('values', dedupe(points));
    }
    const indexSeconds = (performance.now() - started) / 1000;
    const indexed = await store.count('values');

    // The first search loads the collection from disk into memory: timed apart.
    const loadStarted = performance.now();
    await store.search('values', embedder.embedOne('warm up'), { k: 10 });
    const loadMs = performance.now() - loadStarted;

    const times: number[] = [];
    const filteredTimes: number[] = [];
    for (let i = 0; i < searchCount; i++) {
      const target = values[(i * 7919) % values.length];
      const query = embedder.embedOne(asQuestionLiteral(target.value, i));
      let t = performance.now();
      await store.search('values', query, { k: 10 });
      times.push(performance.now() - t);
      t = performance.now();
      await store.search('values', query, { k: 10, filter: { db: target.db } });
      filteredTimes.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    filteredTimes.sort((a, b) => a - b);

    console.log(`values_indexed: ${indexed}`);
    console.log(`values_per_second: ${Math.round(values.length / indexSeconds)}`);
    console.log(`search_ms_p50: ${percentile(times, 50).toFixed(2)}`);
    console.log(`search_ms_p95: ${percentile(times, 95).toFixed(2)}`);
    console.log(`search_filtered_ms_p50: ${percentile(filteredTimes, 50).toFixed(2)}`);
    console.log(`index_load_ms: ${loadMs.toFixed(0)}`);
    console.log(`peak_rss_mib: ${Math.round(process.resourceUsage().maxRSS / 1024)}`);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A padded value can equal a real one in the same batch; the store refuses one id twice per call. */
function dedupe(points: VectorPoint[]): VectorPoint[] {
  return [...new Map(points.map((p) => [p.id, p])).values()];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
