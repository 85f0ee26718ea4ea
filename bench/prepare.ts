/**
 * The offline preparation (DexterSQL §3.1.1–3.1.3) of every shipped Spider database, through
 * the real `prepareDatabase` workflow on a real Temporal dev server, with in-process workers
 * and the scripted LLM standing in for triage and notes (devkit/scripted-exploration-rules,
 * served from a process of its own, as a model server would be).
 *
 *   npm run bench:prepare [-- --limit 20] [--parallel 8] [--only formula_1] [--with-llm] [--engine postgres]
 *
 * `--engine postgres` prepares copies of the same databases in a PostgreSQL server of the
 * bench's own (Debian's packages, as the tests start one; bench/postgres-spider-server.ts), read
 * by a SELECT-only role: the same lines, plus `load_seconds` (copying them in, before the
 * preparations) and the server's share apart, as the Temporal server's is
 * (`postgres_server_peak_pss_mib`, `cpu_seconds_postgres_server`); the SQLite query-process
 * lines then count none.
 *
 * The process hosts the workers as `decodex worker` does: started through bin/decodex-node (the
 * `decodex` command's malloc and V8 settings) and sized from the same environment
 * (DECODEX_SQL_POOL_SIZE, DECODEX_OFFLINE_CONCURRENCY, ...).
 *
 * Prints `name: value` lines:
 * - prepare_seconds: wall time from the first start to the last result over all databases:
 *   profiling + indexing + statistics (the explorator's `useLlm` off, so Step 3 measures every
 *   candidate pair and no model is asked). With `--with-llm` the run also triages and writes
 *   notes, answered by the scripted model (phase times are printed apart);
 * - rows_per_second: rows of all databases / prepare_seconds;
 * - values_indexed: distinct text values embedded into the value indices;
 * - values_per_second: those values / the time the value-index activities of this same run
 *   reported for reading, embedding and upserting them (summed over activities running side by
 *   side, so it is a per-activity rate under the run's real contention);
 * - peak_rss_mib: peak memory of decodex's whole preparation: this process (workers and client)
 *   plus every SQLite query process it started, each at its own peak (so a bound from above),
 *   plus any other process it keeps beside them (`peak_rss_other_processes_mib`, the most they
 *   held together at one sample; none is expected: tsx's esbuild service was one);
 *   `peak_rss_decodex_process_mib`, `peak_rss_sqlite_processes_mib` (with `sqlite_pool_size`
 *   and each query process's own peak in `sqlite_processes_peaks_mib`) and the peaks of this
 *   process's V8 heap (used, reserved) and external memory say where it goes;
 * - startup_processes_peak_mib: the children a worker runs alone at start, as `decodex worker`
 *   does (bundling the workflows with webpack; node-llama-cpp trying its binding when MiniLM
 *   loads): they exit before the first database starts, so they are apart from peak_rss_mib;
 * - temporal_server_rss_mib: the Temporal dev server's peak, apart (a deployment shares one);
 * - cpu_seconds_decodex, cpu_seconds_sqlite_processes, cpu_seconds_temporal_server: what the run
 *   cost each (on 2 cores the wall time is at least their sum / 2), and
 *   slowest_databases_seconds: the longest single preparations (the wall time is at least those).
 *   The scripted model's process stands in for a model server and is counted in neither.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { sharedSqliteProcessPool } from '../activities/database/sqlite-process-pool';
import { disposeMiniLmModels } from '../activities/embeddings/minilm-embedder';
import { indexEmbeddersFromEnv } from '../activities/indexing/index-backends';
import { loadEmbedders } from '../activities/embeddings/index-embedders';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { mapWithConcurrency } from '../core/map-with-concurrency';
import type { PrepareDatabaseResult } from '../core/preparation/preparation-types';
import { PREPARATION_TASK_QUEUES } from '../core/task-queues';
import { createWorkers } from '../workers/create-workers';
import { workerSizingFromEnv } from '../workers/worker-sizing';
import { causeChain, startBenchTemporal } from './bench-temporal';
import { startPostgresSpiderServer, type PostgresSpiderServer } from './postgres-spider-server';
import { childPids, commandOf, cpuSeconds, peakRssKib, watchChildProcesses, watchMemoryParts } from './process-stats';
import { watchProcessTree } from './process-tree-stats';
import { shippedSpiderDatabases } from '../devkit/spider-database-files';

const PHASES = ['inspect', 'profile', 'index', 'candidates', 'triage', 'statistics', 'notes', 'publish'];

/** Time of one database's preparation, its steps summed. */
const stepsMs = (r: PrepareDatabaseResult) => r.steps.reduce((n, s) => n + s.elapsedMs, 0);

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function spiderDatabases(limit: number, only: string | undefined): { dbId: string; file: string }[] {
  return (
    shippedSpiderDatabases(datasetsRoot(process.env))
      .filter(({ dbId }) => !only || dbId === only)
      .slice(0, limit)
      // Largest first: the longest preparation (formula_1) then overlaps the many small ones
      // instead of running alone at the end.
      .sort((a, b) => statSync(b.file).size - statSync(a.file).size)
  );
}

function engineArgument(): 'sqlite' | 'postgres' {
  const at = process.argv.indexOf('--engine');
  const engine = at >= 0 ? process.argv[at + 1] : 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine is sqlite or postgres, got ${engine}`);
  return engine;
}

/** The scripted model in a child process (see bench/scripted-llm-process.ts). */
async function startScriptedLlmProcess(): Promise<{ baseUrl: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, 'scripted-llm-process.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { baseUrl: chunk.toString().trim(), process: child };
}

async function main(): Promise<void> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const files = spiderDatabases(argument('limit', Infinity), only);
  const engine = engineArgument();
  // Copied in before anything is measured: the preparations then read PostgreSQL, not the files.
  const postgres: PostgresSpiderServer | null = engine === 'postgres' ? await startPostgresSpiderServer(files) : null;
  const databases = postgres ? postgres.databases : files.map((f) => f.file);
  const parallel = argument('parallel', 8);
  const useLlm = process.argv.includes('--with-llm');
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchTemporal();
  const llm = await startScriptedLlmProcess();
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-prepare-'));
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  const vectors = new EmbeddedVectorStore(path.join(home, 'vectors'));
  const llmConfig = loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'bench' });
  // Sized as `decodex worker` sizes itself (DECODEX_SQL_POOL_SIZE, DECODEX_OFFLINE_CONCURRENCY, ...).
  const sizing = workerSizingFromEnv(process.env, llmConfig);
  const sqlitePool = sharedSqliteProcessPool(process.env, sizing.sqlPool.sqlite);
  const registry = new DatabaseRegistry((spec) => openTargetDatabase(spec, { sqlite: { pool: sqlitePool } }));
  const llmService = createLlmService({ config: llmConfig, store });
  const connection = await NativeConnection.connect({ address: env.address });
  const queuePrefix = 'bench.';
  // The embedders a worker would use here (DECODEX_EMBEDDER, default minilm when installed).
  const embedders = indexEmbeddersFromEnv(process.env);
  // What a worker starts alone before its first job: the child that bundles the workflows, and
  // node-llama-cpp's check of its binding in a child when the embedders load their models.
  const ownCommand = commandOf(process.pid);
  const decodexChild = (command: string) =>
    command !== '' &&
    command !== ownCommand &&
    !['scripted-llm-process', 'temporal'].some((known) => command.includes(known)) &&
    !(postgres && command.startsWith(postgres.binary));
  const startup = watchChildProcesses(decodexChild, 50);
  await loadEmbedders(embedders);
  const workers = await createWorkers({
    connection,
    namespace: 'default',
    // As `decodex prepare` does: the queues preparation uses, no idle `online` worker.
    queues: PREPARATION_TASK_QUEUES,
    queuePrefix,
    deps: { databases: registry, llm: llmService, artifacts: store, embedders, vectors },
    // No prebuilt bundle: the workers bundle their workflows as `decodex worker` does, in a
    // short-lived child process (workers/bundle-workflows.ts), before anything is measured.
    offlineConcurrency: sizing.offlineConcurrency,
    llmConcurrency: sizing.llmConcurrency,
  });
  startup.stop();
  const running = workers.map((w) => w.run());
  const client = await DecodexClient.connect({ address: env.address, queuePrefix });
  const temporalPids = childPids(process.pid).filter((pid) => commandOf(pid).includes('temporal'));
  const watch = watchChildProcesses((command) => command.includes('sqlite-query-process'));
  // Any other process decodex keeps (none is expected: an esbuild service left running was one).
  // A child caught between fork and exec still shows this process's command line (and shares its
  // pages): that is not a process of its own yet.
  const others = watchChildProcesses((command) => decodexChild(command) && !command.includes('sqlite-query-process'));
  const memory = watchMemoryParts();
  const server = postgres ? watchProcessTree(postgres.pid) : null;
  const results: { database: string; result: PrepareDatabaseResult }[] = [];
  const failures: string[] = [];
  try {
    const cpuBefore = process.cpuUsage();
    const sqliteCpuBefore = watch.cpuSeconds();
    const serverCpuBefore = temporalPids.reduce((n, pid) => n + cpuSeconds(pid), 0);
    const postgresCpuBefore = server?.cpuSeconds() ?? 0;
    const started = performance.now();
    await mapWithConcurrency(databases, parallel, async (database) => {
      try {
        results.push({ database, result: (await client.prepare({ database, config: { exploration: { useLlm } } })).result });
      } catch (err) {
        failures.push(`${path.basename(database)}: ${causeChain(err)}`);
      }
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const processKib = process.resourceUsage().maxRSS;
    const queryProcessesKib = watch.peakKib();
    const otherProcessesKib = others.peakTogetherKib();
    const sum = (f: (r: PrepareDatabaseResult) => number) => results.reduce((n, r) => n + f(r.result), 0);
    const rows = sum((r) => r.manifest.counts.rows);
    const valuesIndexed = sum((r) => r.manifest.counts.valuesIndexed);
    const valueIndexSeconds = sum((r) => r.activityMs.valueIndex) / 1000;
    const mib = (kib: number) => Math.round(kib / 1024);

    for (const f of failures) console.error(`failed: ${f}`);
    console.log(`engine: ${engine}`);
    if (postgres) console.log(`load_seconds: ${postgres.loadSeconds.toFixed(1)}`);
    console.log(`databases: ${results.length}`);
    console.log(`failed_databases: ${failures.length}`);
    console.log(`tables: ${sum((r) => r.manifest.counts.tables)}`);
    console.log(`columns: ${sum((r) => r.manifest.counts.columns)}`);
    console.log(`rows: ${rows}`);
    console.log(`prepare_seconds: ${seconds.toFixed(1)}`);
    console.log(`rows_per_second: ${Math.round(rows / seconds)}`);
    console.log(`values_indexed: ${valuesIndexed}`);
    console.log(`values_per_second: ${Math.round(valuesIndexed / valueIndexSeconds)}`);
    console.log(`peak_rss_mib: ${mib(processKib + queryProcessesKib + otherProcessesKib)}`);
    console.log(`peak_rss_decodex_process_mib: ${mib(processKib)}`);
    console.log(`peak_rss_sqlite_processes_mib: ${mib(queryProcessesKib)}`);
    console.log(`peak_rss_other_processes_mib: ${mib(otherProcessesKib)}`);
    console.log(`sqlite_pool_size: ${sqlitePool.size}`);
    // Alone, before the first database: not at the same time as the peaks above, so not in their sum.
    console.log(`startup_processes_peak_mib: ${mib(startup.peakTogetherKib())}`);
    console.log(`sqlite_processes_peaks_mib: ${watch.peaksKib().map(mib).join(' ') || 'none'}`);
    const parts = memory.peaksKib();
    console.log(`peak_heap_used_mib: ${mib(parts.heapUsed)}`);
    console.log(`peak_heap_total_mib: ${mib(parts.heapTotal)}`);
    console.log(`peak_external_mib: ${mib(parts.external)}`);
    console.log(`profile_embedder: ${embedders.profiles.name}/${embedders.profileText}`);
    console.log(`value_embedder: ${embedders.values.name}`);
    console.log(`profile_index_seconds_summed: ${(sum((r) => r.activityMs.profileIndex) / 1000).toFixed(1)}`);
    console.log(`llm_steps: ${useLlm ? 'on (scripted model)' : 'off'}`);
    console.log(`candidate_pairs: ${sum((r) => r.manifest.counts.candidatePairs)}`);
    console.log(`confirmed_pairs: ${sum((r) => r.manifest.counts.confirmedPairs)}`);
    console.log(`notes: ${sum((r) => r.manifest.counts.notes)}`);
    console.log(`llm_calls: ${sum((r) => r.usage.llmCalls)}`);
    // The longest preparations bound the wall time from below (each one's steps run in order).
    const slowest = [...results].sort((x, y) => stepsMs(y.result) - stepsMs(x.result)).slice(0, 3);
    console.log(
      `slowest_databases_seconds: ${slowest.map((r) => `${path.basename(r.database, '.sqlite')} ${(stepsMs(r.result) / 1000).toFixed(1)}`).join(', ')}`,
    );
    for (const step of PHASES) {
      console.log(
        `phase_${step}_seconds_summed: ${(sum((r) => r.steps.filter((s) => s.step === step).reduce((n, s) => n + s.elapsedMs, 0)) / 1000).toFixed(1)}`,
      );
    }
    console.log(`cpu_seconds_decodex: ${((cpu.user + cpu.system) / 1e6).toFixed(1)}`);
    console.log(`cpu_seconds_sqlite_processes: ${(watch.cpuSeconds() - sqliteCpuBefore).toFixed(1)}`);
    console.log(`cpu_seconds_temporal_server: ${(temporalPids.reduce((n, pid) => n + cpuSeconds(pid), 0) - serverCpuBefore).toFixed(1)}`);
    console.log(`temporal_server_rss_mib: ${Math.round(temporalPids.reduce((n, pid) => n + peakRssKib(pid), 0) / 1024)}`);
    if (server) {
      console.log(`cpu_seconds_postgres_server: ${(server.cpuSeconds() - postgresCpuBefore).toFixed(1)}`);
      console.log(`postgres_server_peak_pss_mib: ${mib(server.peakPssKib())}`);
    }
  } finally {
    watch.stop();
    others.stop();
    memory.stop();
    server?.stop();
    await client.close();
    for (const w of workers) w.shutdown();
    await Promise.all(running);
    await registry.closeAll();
    await vectors.close();
    await store.close();
    await connection.close();
    await disposeMiniLmModels();
    llm.process.stdin?.end();
    await env.teardown();
    await postgres?.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
