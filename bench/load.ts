/**
 * Load: many questions at once to one worker, with an LLM stand-in of fixed latency, to see
 * what orchestration (Temporal round trips, workflow and activity scheduling, payloads, the
 * worker's own code) adds on top of the time a question must wait for its model and database.
 *
 *   npm run bench:load [-- --questions 200] [--one-at-a-time 5] [--latency-ms 1000] [--preset quick]
 *
 * Setup: a Temporal dev server (in memory), one worker in this process serving all three task
 * queues (LLM concurrency = the number of questions, so the model is never the queue), and the
 * scripted LLM in a process of its own answering every completion after `--latency-ms`.
 * Questions are Spider dev questions of concert_singer, each asked once (a number appended, so
 * no answer comes from the LLM cache). After one warm-up question, `--questions` are all started
 * at the same moment, then `--one-at-a-time` questions are asked one after another.
 *
 * Prints `name: value` lines: questions_per_second (questions over the wall time from the first
 * start to the last answer), latency_p50_seconds / latency_p95_seconds (start to answer, per
 * question), and orchestration_overhead_fraction: over all questions, the time not spent
 * waiting on the LLM (the stand-in's time serving that question's requests) or the database
 * (the time the worker's database calls took), over end-to-end time. Target: <= 0.10.
 *
 * Beside it, the floor (load-floor.ts): Temporal alone on the same server in the same run,
 * workflows of the same shape (the question's activity count, one waiting the model's latency),
 * started the same way. decodex cannot go below it, so the two figures side by side say how
 * much of the overhead is decodex's and how much is the machine's. The history's shape
 * (events, workflow tasks, activities), database calls and CPU per question say where it goes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import type { TargetDatabase } from '../activities/database/target-database';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../activities/embeddings/index-embedders';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { ALL_TASK_QUEUES } from '../core/task-queues';
import { spiderDatabasePath, spiderDev } from '../devkit/datasets';
import { createWorkers } from '../workers/create-workers';
import { percentile } from '../core/benchmark/percentiles';
import { startBenchTemporal } from './bench-temporal';
import { startFloor } from './load-floor';
import { childPids, commandOf, cpuSeconds } from './process-stats';

/** A database whose every call adds its duration to `waited.ms`: the time spent waiting on the database. */
function timedDatabase(db: TargetDatabase, waited: { ms: number; calls: Record<string, number> }): TargetDatabase {
  return new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || key === 'close') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        waited.calls[String(key)] = (waited.calls[String(key)] ?? 0) + 1;
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          waited.ms += performance.now() - started;
        }
      };
    },
  });
}

/** Events, workflow tasks and activities in one question's history. */
async function historyShape(env: TestWorkflowEnvironment, workflowId: string) {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const count = (key: string) => events.filter((e) => (e as Record<string, unknown>)[key]).length;
  return { events: events.length, workflowTasks: count('workflowTaskScheduledEventAttributes'), activities: count('activityTaskScheduledEventAttributes') };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      questions: { type: 'string', default: '200' },
      'one-at-a-time': { type: 'string', default: '5' },
      'latency-ms': { type: 'string', default: '1000' },
      preset: { type: 'string', default: 'quick' },
    },
  });
  const count = Number(values.questions);
  const sequential = Number(values['one-at-a-time']);
  const latencyMs = Number(values['latency-ms']);
  for (const [name, n] of [
    ['--questions', count],
    ['--one-at-a-time', sequential],
    ['--latency-ms', latencyMs],
  ] as const)
    if (!Number.isInteger(n) || n < (name === '--questions' ? 1 : 0))
      throw new Error(`${name} must be a whole number${name === '--questions' ? ' of at least 1' : ''}`);
  const pool = spiderDev().filter((q) => q.db_id === 'concert_singer');
  const questions = Array.from({ length: 1 + sequential + count }, (_, i) => ({
    question: `${pool[i % pool.length].question} (#${i})`,
    sql: pool[i % pool.length].query,
  }));
  const warmUp = questions[0];
  const oneByOne = questions.slice(1, 1 + sequential);
  const burst = questions.slice(1 + sequential);
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
  const env = await startBenchTemporal();
  const dbWait = { ms: 0, calls: {} as Record<string, number> };
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
  const floor = await startFloor(env, connection, `${queuePrefix}floor`);
  const client = await DecodexClient.connect({ address: env.address, queuePrefix });
  const temporalPids = childPids(process.pid).filter((pid) => commandOf(pid).includes('temporal'));
  const queryProcesses = () => childPids(process.pid).filter((pid) => commandOf(pid).includes('sqlite-query-process'));
  const cpuOf = (pids: number[]) => pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
  /** CPU seconds of this process (workers, client), the Temporal server and the SQLite query processes while `work` runs. */
  const measureCpu = async <T>(work: () => Promise<T>) => {
    const before = { worker: process.cpuUsage(), server: cpuOf(temporalPids), queries: cpuOf(queryProcesses()) };
    const result = await work();
    const worker = process.cpuUsage(before.worker);
    return {
      result,
      cpu: { worker: (worker.user + worker.system) / 1e6, server: cpuOf(temporalPids) - before.server, queries: cpuOf(queryProcesses()) - before.queries },
    };
  };
  try {
    const ask = async (question: string) => {
      const started = performance.now();
      const { result, workflowId } = await client.ask({ question, database, preset: values.preset });
      return { question, workflowId, outcome: result.outcome, llmCalls: result.usage.llmCalls, seconds: (performance.now() - started) / 1000 };
    };
    await ask(warmUp.question); // workflow code loaded, database opened (and prepared, for presets that need it)
    dbWait.ms = 0;
    dbWait.calls = {};
    const started = performance.now();
    const { result: answers, cpu } = await measureCpu(() => Promise.all(burst.map((q) => ask(q.question))));
    const wallSeconds = (performance.now() - started) / 1000;
    const burstDbMs = dbWait.ms;
    const history = await historyShape(env, answers[0].workflowId);
    // One question in flight at a time, after the burst: the code is as warm as a long-running worker's.
    const oneByOneAnswers = [];
    for (const q of oneByOne) oneByOneAnswers.push(await ask(q.question));

    // Temporal alone, the same shape and the same way, on the same server and machine.
    await floor.oneAtATime(1, history.activities, latencyMs); // its workflow code loaded
    const { result: floorBurst, cpu: floorCpu } = await measureCpu(() => floor.burst(count, history.activities, latencyMs));
    const floorOneByOne = await floor.oneAtATime(sequential, history.activities, latencyMs);

    stand.stdin!.end();
    await once(stand, 'exit');
    const servedLine = standOut.split('\n').find((line) => line.startsWith('served: '));
    if (!servedLine) throw new Error('the LLM stand-in did not report the time it served');
    const served = JSON.parse(servedLine.slice('served: '.length)) as Record<string, number>;
    const llmSecondsOf = (list: { question: string }[]) => list.reduce((n, a) => n + (served[a.question.replace(/\s+$/, '')] ?? 0), 0) / 1000;
    const endToEnd = answers.reduce((n, a) => n + a.seconds, 0);
    const llmSeconds = llmSecondsOf(answers);
    const latencies = answers.map((a) => a.seconds);
    const oneByOneEndToEnd = oneByOneAnswers.reduce((n, a) => n + a.seconds, 0);
    // The database time of the one-by-one questions is not separated out: it is the few ms of a small query each.
    const oneByOneOverhead = sequential ? ((oneByOneEndToEnd - llmSecondsOf(oneByOneAnswers)) / oneByOneEndToEnd).toFixed(3) : 'n/a';
    const perQuestionMs = (seconds: number) => ((seconds * 1000) / count).toFixed(1);
    const lines: Record<string, string | number> = {
      questions: answers.length,
      preset: values.preset!,
      llm_latency_seconds: latencyMs / 1000,
      questions_answered: answers.filter((a) => a.outcome === 'answered').length,
      llm_calls_per_question: (answers.reduce((n, a) => n + a.llmCalls, 0) / answers.length).toFixed(2),
      wall_seconds: wallSeconds.toFixed(2),
      questions_per_second: (answers.length / wallSeconds).toFixed(2),
      latency_p50_seconds: percentile(latencies, 50)!.toFixed(2),
      latency_p95_seconds: percentile(latencies, 95)!.toFixed(2),
      llm_wait_fraction: (llmSeconds / endToEnd).toFixed(3),
      database_wait_fraction: (burstDbMs / 1000 / endToEnd).toFixed(3),
      orchestration_overhead_fraction: ((endToEnd - llmSeconds - burstDbMs / 1000) / endToEnd).toFixed(3),
      // The floor: Temporal alone, same shape, same burst (see load-floor.ts). decodex cannot go below it.
      temporal_floor_overhead_fraction: floorBurst.overheadFraction.toFixed(3),
      temporal_floor_latency_p50_seconds: percentile(floorBurst.seconds, 50)!.toFixed(2),
      // The same, with one question in flight at a time: what orchestration adds when nothing queues.
      one_at_a_time_questions: sequential,
      orchestration_overhead_fraction_one_at_a_time: oneByOneOverhead,
      temporal_floor_overhead_fraction_one_at_a_time: sequential ? floorOneByOne.overheadFraction.toFixed(3) : 'n/a',
      // What one question asks of Temporal and the database: every task and event costs server and worker CPU.
      history_events_per_question: history.events,
      workflow_tasks_per_question: history.workflowTasks,
      activities_per_question: history.activities,
      database_calls_per_question: Object.entries(dbWait.calls)
        .map(([method, n]) => `${method} ${(n / answers.length).toFixed(1)}`)
        .join(', '),
      // Where orchestration's time goes: CPU per question during the burst, per process, decodex beside the floor.
      worker_cpu_ms_per_question: perQuestionMs(cpu.worker),
      temporal_server_cpu_ms_per_question: perQuestionMs(cpu.server),
      sqlite_query_processes_cpu_ms_per_question: perQuestionMs(cpu.queries),
      temporal_floor_worker_cpu_ms_per_question: perQuestionMs(floorCpu.worker),
      temporal_floor_server_cpu_ms_per_question: perQuestionMs(floorCpu.server),
      cpu_cores: os.availableParallelism(),
      load_average_1m: os.loadavg()[0].toFixed(2),
    };
    for (const [name, value] of Object.entries(lines)) console.log(`${name}: ${value}`);
  } finally {
    stand.kill();
    await client.close();
    await floor.stop();
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
