/**
 * Kills the worker in the middle of preparing a large database and starts another, to show
 * that the preparation completes without re-profiling the tables that were finished, and that
 * the table in flight resumes from its last heartbeat. Then interrupts a second preparation
 * for good (terminates the run) and starts a new one, to show that stored profiles are skipped.
 *
 *   npm run demo:prepare-resume
 *
 * The offline worker is a real `decodex worker --queue offline` process, killed with SIGKILL.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../activities/embeddings/index-embedders';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { findTemporalCli } from '../cli/temporal/find-temporal-cli';
import type { PrepareDatabaseInput } from '../core/preparation/preparation-types';
import type { ProfileTablesOutput } from '../activities/profiling/profile-tables';
import { ALL_SEARCH_ATTRIBUTES } from '../core/search-attributes';
import { createWorkers } from '../workers/create-workers';
import { startScriptedLlm } from '../devkit/scripted-llm/server';
import { activityRecords } from '../devkit/activity-history';
import { scriptedExplorationRules } from '../devkit/scripted-exploration-rules';
import { createSyntheticDatabase } from '../devkit/synthetic-database';
import { startWorkerProcess } from '../devkit/worker-process';

const TABLES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${line}`);

/** A real worker process for the offline queue; resolves once it polls. */
const startOfflineWorker = async (env: Record<string, string>) => (await startWorkerProcess(env, { args: ['--queue', 'offline'] })).child;

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-demo-resume-'));
  log(`creating a database of ${TABLES} tables x 48 columns x 30,000 rows`);
  const database = createSyntheticDatabase(home, { tables: TABLES, columns: 48, rows: 30_000, name: 'large' });

  const temporal = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli(process.env.DECODEX_TEMPORAL_CLI ?? null) },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  });
  const llm = await startScriptedLlm({ rules: scriptedExplorationRules });
  const queuePrefix = 'demo.';
  // The model queue runs here; the offline queue in worker processes sharing DECODEX_HOME.
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  const vectors = new EmbeddedVectorStore(path.join(home, 'vectors'));
  const registry = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const llmService = createLlmService({
    config: loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'demo' }),
    store,
  });
  const connection = await NativeConnection.connect({ address: temporal.address });
  const [llmWorker] = await createWorkers({
    connection,
    namespace: 'default',
    queues: ['llm'],
    queuePrefix,
    deps: { databases: registry, llm: llmService, artifacts: store, embedders: sameEmbedder(new HashedEmbedder()), vectors },
  });
  const llmRunning = llmWorker.run();
  const workerEnv = { TEMPORAL_ADDRESS: temporal.address, DECODEX_QUEUE_PREFIX: queuePrefix, DECODEX_HOME: home };
  const client = await DecodexClient.connect({ address: temporal.address, queuePrefix });
  const request = (db: string): PrepareDatabaseInput => ({
    database: db,
    // One table per activity (each table is more than valuesPerActivity anyway), one at a time,
    // and a short heartbeat timeout, so the kill lands inside a table and the retry starts soon
    // after; small value/candidate bounds keep the later phases short.
    limits: { parallelTables: 1, valuesPerActivity: 1, heartbeatTimeoutMs: 4_000 },
    config: { index: { valuesPerColumn: 200 }, exploration: { maxCandidatePairs: 3 } },
  });
  const waitForProfiled = async (workflowId: string, tables: number) => {
    for (;;) {
      const p = await client.progress(workflowId).catch(() => null);
      if (p && p.step === 'profile' && p.done >= tables) return;
      await sleep(20);
    }
  };

  try {
    // Part 1: SIGKILL the worker mid-table, start another one.
    let worker = await startOfflineWorker(workerEnv);
    log(`offline worker pid ${worker.pid} started`);
    const run = await client.startPreparation(request(database));
    log(`started ${run.workflowId}`);
    await waitForProfiled(run.workflowId, 3);
    // The fourth table has just started: kill once its first heartbeat (after 1 s) is recorded.
    await sleep(1_300);
    const progress = await client.progress(run.workflowId);
    worker.kill('SIGKILL');
    log(`SIGKILL worker pid ${worker.pid} at progress ${JSON.stringify(progress)}`);
    worker = await startOfflineWorker(workerEnv);
    log(`offline worker pid ${worker.pid} started`);
    const result = await run.handle.result();
    log(`finished: ${result.status}, ${result.profiledTables} tables profiled, ${result.manifest.counts.valuesIndexed} values indexed`);
    const profiled = (await activityRecords(run.handle)).filter((a) => a.name === 'profileTables');
    for (const a of profiled) {
      for (const out of (a.result as ProfileTablesOutput).tables) {
        const resumed = out.resumedAtColumn > 0 ? `, resumed at column ${out.resumedAtColumn}/${out.columns} from the heartbeat` : '';
        const stored = out.alreadyStored ? ', found stored by the killed attempt' : '';
        log(`  profileTables ${out.table}: scheduled once, attempt ${a.attempt}${resumed}${stored}, last attempt ${out.elapsedMs} ms`);
      }
    }
    const retried = profiled.filter((a) => a.attempt > 1).length;
    log(`profileTables activities: ${profiled.length} for ${TABLES} tables; ${profiled.length - retried} ran once, ${retried} retried after the kill`);

    // Part 2: a run stopped for good; a new run skips the stored profiles.
    const copy = path.join(home, 'large_copy.sqlite');
    copyFileSync(database, copy);
    const interrupted = await client.startPreparation(request(copy));
    await waitForProfiled(interrupted.workflowId, 3);
    await interrupted.handle.terminate('demo: interrupted for good');
    log(`terminated ${interrupted.workflowId} after 3 tables were profiled`);
    const again = await client.prepare(request(copy));
    const activities = await activityRecords(again.handle);
    const stored = (activities.find((a) => a.name === 'inspectDatabase')!.result as { profiledTables: string[] }).profiledTables;
    const profiledAgain = activities.filter((a) => a.name === 'profileTables').flatMap((a) => (a.input as { tables: string[] }).tables);
    log(`new run: inspect found ${stored.length} stored profiles (${stored.join(', ')}); profiled ${profiledAgain.length}: ${profiledAgain.join(', ')}`);
    log(`result: ${again.result.status}, reused ${again.result.reusedTables}, profiled ${again.result.profiledTables}`);
    worker.kill('SIGTERM');
  } finally {
    await client.close();
    llmWorker.shutdown();
    await llmRunning;
    await registry.closeAll();
    await vectors.close();
    await store.close();
    await connection.close();
    await llm.close();
    await temporal.teardown();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
