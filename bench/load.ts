/**
 * Load: many questions at once to one worker, with an LLM stand-in of fixed latency, to see
 * what orchestration (Temporal round trips, workflow and activity scheduling, payloads, the
 * worker's own code) adds on top of the time a question must wait for its model and database.
 *
 *   npm run bench:load [-- --questions 200] [--latency-ms 1000] [--preset quick]
 *
 * Setup: a Temporal dev server (in memory), one worker in this process serving all three task
 * queues (LLM concurrency = the number of questions, so the model is never the queue), and the
 * scripted LLM in a process of its own answering every completion after `--latency-ms`.
 * Questions are Spider dev questions of concert_singer, each asked once (a number appended, so
 * no answer comes from the LLM cache), all started at the same moment after one warm-up question.
 *
 * Prints `name: value` lines: questions_per_second (questions over the wall time from the first
 * start to the last answer), latency_p50_seconds / latency_p95_seconds (start to answer, per
 * question), and orchestration_overhead_fraction: over all questions, the time not spent
 * waiting on the LLM (the stand-in's time serving that question's requests) or the database
 * (the time the worker's database calls took), over end-to-end time. Target: <= 0.10.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import type { TargetDatabase } from '../activities/database/target-database';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../activities/indexing/index-embedders';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { findTemporalCli } from '../cli/temporal/find-temporal-cli';
import { ALL_SEARCH_ATTRIBUTES } from '../core/search-attributes';
import { ALL_TASK_QUEUES } from '../core/task-queues';
import { spiderDatabasePath, spiderDev } from '../test/support/datasets';
import { createWorkers } from '../workers/create-workers';
import { childPids, commandOf, cpuSeconds } from './process-stats';

/** A database whose every call adds its duration to `waited.ms`: the time spent waiting on the database. */
function timedDatabase(db: TargetDatabase, waited: { ms: number }): TargetDatabase {
  return new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || key === 'close') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          waited.ms += performance.now() - started;
        }
      };
    },
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { questions: { type: 'string', default: '200' }, 'latency-ms': { type: 'string', default: '1000' }, preset: { type: 'string', default: 'quick' } },
  });
  const count = Number(values.questions);
  const latencyMs = Number(values['latency-ms']);
  const pool = spiderDev().filter((q) => q.db_id === 'concert_singer');
  const questions = Array.from({ length: count + 1 }, (_, i) => ({ question: `${pool[i % pool.length].question} (#${i})`, sql: pool[i % pool.length].query }));
  const [warmUp, ...timed] = questions;
  const database = spiderDatabasePath('concert_singer');

  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-load-'));
  const answersFile = path.join(home, 'answers.json');
  writeFileSync(answersFile, JSON.stringify(Object.fromEntries(questions.map((q) => [q.question, q.sql]))));
  const stand = spawn(
    process.execPath,
    [require.resolve('tsx/cli'), path.join(__dirname, 'scripted-llm-process.ts'), '--pipeline', answersFile, '--latency-ms', String(latencyMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let standOut = '';
  stand.stdout!.on('data', (chunk: Buffer) => (standOut += chunk.toString()));
  while (!standOut.includes('\n')) await once(stand.stdout!, 'data');
  const baseUrl = standOut.split('\n')[0].trim();

  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli(process.env.DECODEX_TEMPORAL_CLI ?? null) },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  });
  const dbWait = { ms: 0 };
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  const registry = new DatabaseRegistry(async (spec) => timedDatabase(await openTargetDatabase(spec), dbWait));
  const vectors = new EmbeddedVectorStore(path.join(home, 'vectors'));
  const llm = createLlmService({
    config: loadLlmConfig({ DECODEX_LLM_BASE_URL: baseUrl, DECODEX_LLM_MODEL: 'scripted-sql', DECODEX_LLM_API_KEY: 'bench' }),
    store,
  });
  const connection = await NativeConnection.connect({ address: env.address });
  const queuePrefix = 'bench-load.';
  const workers = await createWorkers({
    connection,
    namespace: 'default',
    queues: ALL_TASK_QUEUES,
    queuePrefix,
    deps: { databases: registry, llm, artifacts: store, embedders: sameEmbedder(new HashedEmbedder()), vectors },
    llmConcurrency: count,
  });
  const running = workers.map((w) => w.run());
  const client = await DecodexClient.connect({ address: env.address, queuePrefix });
  const temporalPids = childPids(process.pid).filter((pid) => commandOf(pid).includes('temporal'));
  try {
    const ask = async (question: string) => {
      const started = performance.now();
      const { result } = await client.ask({ question, database, preset: values.preset });
      return { question, outcome: result.outcome, llmCalls: result.usage.llmCalls, seconds: (performance.now() - started) / 1000 };
    };
    await ask(warmUp.question); // workflow code loaded, database opened (and prepared, for presets that need it)
    dbWait.ms = 0;
    const queryProcesses = () => childPids(process.pid).filter((pid) => commandOf(pid).includes('sqlite-query-process'));
    const cpuOf = (pids: number[]) => pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
    const cpuBefore = { worker: process.cpuUsage(), server: cpuOf(temporalPids), queries: cpuOf(queryProcesses()) };
    const started = performance.now();
    const answers = await Promise.all(timed.map((q) => ask(q.question)));
    const wallSeconds = (performance.now() - started) / 1000;
    const workerCpu = process.cpuUsage(cpuBefore.worker);
    const cpu = {
      worker: (workerCpu.user + workerCpu.system) / 1e6,
      server: cpuOf(temporalPids) - cpuBefore.server,
      queries: cpuOf(queryProcesses()) - cpuBefore.queries,
    };

    stand.stdin!.end();
    await once(stand, 'exit');
    const servedLine = standOut.split('\n').find((line) => line.startsWith('served: '));
    if (!servedLine) throw new Error('the LLM stand-in did not report the time it served');
    const served = JSON.parse(servedLine.slice('served: '.length)) as Record<string, number>;
    const llmSeconds = answers.reduce((n, a) => n + (served[a.question.replace(/\s+$/, '')] ?? 0), 0) / 1000;
    const endToEnd = answers.reduce((n, a) => n + a.seconds, 0);
    const latencies = answers.map((a) => a.seconds).sort((a, b) => a - b);
    const lines: Record<string, string | number> = {
      questions: answers.length,
      preset: values.preset!,
      llm_latency_seconds: latencyMs / 1000,
      questions_answered: answers.filter((a) => a.outcome === 'answered').length,
      llm_calls_per_question: (answers.reduce((n, a) => n + a.llmCalls, 0) / answers.length).toFixed(2),
      wall_seconds: wallSeconds.toFixed(2),
      questions_per_second: (answers.length / wallSeconds).toFixed(2),
      latency_p50_seconds: percentile(latencies, 50).toFixed(2),
      latency_p95_seconds: percentile(latencies, 95).toFixed(2),
      llm_wait_fraction: (llmSeconds / endToEnd).toFixed(3),
      database_wait_fraction: (dbWait.ms / 1000 / endToEnd).toFixed(3),
      orchestration_overhead_fraction: ((endToEnd - llmSeconds - dbWait.ms / 1000) / endToEnd).toFixed(3),
      // Where orchestration's time goes: CPU seconds during the timed questions, per process.
      worker_cpu_seconds: cpu.worker.toFixed(2),
      temporal_server_cpu_seconds: cpu.server.toFixed(2),
      sqlite_query_processes_cpu_seconds: cpu.queries.toFixed(2),
      cpu_cores: os.availableParallelism(),
      load_average_1m: os.loadavg()[0].toFixed(2),
    };
    for (const [name, value] of Object.entries(lines)) console.log(`${name}: ${value}`);
  } finally {
    stand.kill();
    await client.close();
    for (const w of workers) w.shutdown();
    await Promise.all(running);
    await registry.closeAll();
    await vectors.close();
    await connection.close();
    store.close?.();
    await env.teardown();
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:load: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
