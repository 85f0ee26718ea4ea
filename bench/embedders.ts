/**
 * What each local embedder costs per text, on the texts the indices embed: every Spider
 * database's distinct text values (at most the value index's η per column; a uniform sample is
 * timed) and its column names. Prints `name: value` lines, including what a value index of all
 * those values would take with each embedder: the measurement behind keeping values on the
 * hashed embedder (activities/indexing/index-backends.ts).
 *
 *   npm run bench:embedders
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Embedder } from '../activities/embeddings/embedder';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { disposeMiniLmModels, MiniLmEmbedder } from '../activities/embeddings/minilm-embedder';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { resolvePreparationConfig } from '../core/preparation/preparation-config';

const SAMPLE = 1_000;

/** Distinct non-empty text values per text column (at most `perColumn`), and column names, of every Spider database. */
function spiderTexts(perColumn: number): { values: string[]; columns: string[] } {
  const root = path.join(datasetsRoot(process.env), 'spider', 'database');
  const values: string[] = [];
  const columns: string[] = [];
  for (const dbId of readdirSync(root).sort()) {
    let db: Database.Database;
    try {
      db = new Database(path.join(root, dbId, `${dbId}.sqlite`), { readonly: true, fileMustExist: true });
    } catch {
      continue; // wta_1 ships without its .sqlite
    }
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      for (const { name: table } of tables) {
        const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
        for (const { name: column } of db.prepare(`PRAGMA table_info(${q(table)})`).all() as { name: string }[]) {
          columns.push(`${table}: ${column}`);
          const rows = db.prepare(`SELECT DISTINCT ${q(column)} AS v FROM ${q(table)} WHERE typeof(${q(column)}) = 'text' LIMIT ${perColumn}`).all() as {
            v: string;
          }[];
          for (const { v } of rows) if (v.trim() !== '') values.push(v);
        }
      }
    } catch {
      // a database upstream ships broken is skipped, as the value index would fail on it
    } finally {
      db.close();
    }
  }
  return { values, columns };
}

/** Every k-th text, about `n` of them: spread over all databases, the same on every run. */
function sample(texts: string[], n: number): string[] {
  const step = Math.max(1, Math.floor(texts.length / n));
  return texts.filter((_, i) => i % step === 0).slice(0, n);
}

async function msPerText(embedder: Embedder, texts: string[]): Promise<number> {
  await embedder.embed(texts.slice(0, 5)); // model load and warm-up are not per-text costs
  const started = performance.now();
  await embedder.embed(texts);
  return (performance.now() - started) / texts.length;
}

async function main(): Promise<void> {
  const { values, columns } = spiderTexts(resolvePreparationConfig().index.valuesPerColumn);
  console.log(`spider_text_values: ${values.length}`);
  console.log(`spider_columns: ${columns.length}`);
  const valueSample = sample(values, SAMPLE);
  const columnSample = sample(columns, SAMPLE);
  for (const embedder of [new HashedEmbedder(), new MiniLmEmbedder()]) {
    const label = embedder instanceof MiniLmEmbedder ? 'minilm' : 'hashed';
    const perValue = await msPerText(embedder, valueSample);
    const perColumn = await msPerText(embedder, columnSample);
    console.log(`${label}_name: ${embedder.name}`);
    console.log(`${label}_ms_per_value: ${perValue.toFixed(3)}`);
    console.log(`${label}_ms_per_column: ${perColumn.toFixed(3)}`);
    console.log(`${label}_all_values_seconds: ${((perValue * values.length) / 1000).toFixed(1)}`);
    console.log(`${label}_all_columns_seconds: ${((perColumn * columns.length) / 1000).toFixed(1)}`);
  }
  await disposeMiniLmModels();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
