/**
 * The value index alone (DexterSQL §3.1.2 (2)), for `bench:prepare`'s `values_per_second` and
 * `peak_rss_mib`: in a fresh process, rebuilds the value index of every database that
 * bench/prepare.ts prepared (reading their stored profiles) into an empty vector store, one
 * database after another, with nothing else running. Prints `name: value` lines.
 *
 *   tsx bench/value-index-alone.ts <artifacts.sqlite> <jobs.json>
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../activities/indexing/index-embedders';
import { buildValueIndex } from '../activities/indexing/build-value-index';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { resolvePreparationConfig, resolvePreparationLimits } from '../core/preparation/preparation-config';
import type { PreparationVersions } from '../core/preparation/preparation-types';
import { watchQueryProcesses } from './process-stats';

export interface ValueIndexJob {
  database: string;
  databaseId: string;
  versions: PreparationVersions;
}

async function main(): Promise<void> {
  const [artifactsFile, jobsFile] = process.argv.slice(2);
  const jobs = JSON.parse(readFileSync(jobsFile, 'utf8')) as ValueIndexJob[];
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-values-'));
  const store = openSqliteArtifactStore(artifactsFile);
  const vectors = new EmbeddedVectorStore(path.join(home, 'vectors'));
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const deps = { databases, store, embedders: sameEmbedder(new HashedEmbedder()), vectors };
  const { index } = resolvePreparationConfig();
  const { queryTimeoutMs } = resolvePreparationLimits();
  const watch = watchQueryProcesses();
  let values = 0;
  let ms = 0;
  try {
    const started = performance.now();
    for (const job of jobs) {
      const out = await buildValueIndex(deps, { ...job, config: index, queryTimeoutMs });
      values += out.valuesIndexed;
      ms += out.valueIndexMs;
    }
    const wallSeconds = (performance.now() - started) / 1000;
    console.log(`values_indexed: ${values}`);
    console.log(`values_per_second: ${Math.round(values / (ms / 1000))}`);
    console.log(`value_index_with_lexicon_seconds: ${wallSeconds.toFixed(1)}`);
    console.log(`peak_rss_mib: ${Math.round((process.resourceUsage().maxRSS + watch.peakKib()) / 1024)}`);
  } finally {
    watch.stop();
    await databases.closeAll();
    await vectors.close();
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
