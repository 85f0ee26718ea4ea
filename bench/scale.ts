/**
 * Scale-out: the same Spider dev questions answered through the real `answerQuestion` workflow
 * by one `decodex worker` process, then by two, each with a DECODEX_HOME of its own (as on two
 * hosts), sharing the MySQL artifact store (a throw-away MariaDB) and Qdrant (when a binary is
 * found; else both read one embedded vector store). The scripted model answers every role at
 * once from a process of its own, so the time is decodex's and Temporal's, not a model's.
 *
 *   npm run bench:scale [-- --questions 200]
 *
 * Every database is prepared first (no model, not timed). Before each phase the LLM cache is
 * emptied and fresh worker processes start, so both phases do the same work from the same state.
 * Prints `name: value` lines:
 * - questions_per_second_1_worker, questions_per_second_2_workers: questions / wall time from
 *   the first start to the last answer, all questions started at once;
 * - scale_ratio_2_workers: the second over the first;
 * - answered_<n>: how many ended `answered` (the scripted SQL is the gold SQL);
 * - cpu_seconds_<part>_<n>: CPU each part used in that phase (workers with their SQLite
 *   processes, the Temporal server, MariaDB, Qdrant, the scripted model, this client), to see
 *   what the cores were busy with; cpu_cores: the machine's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import mysql from 'mysql2/promise';
import { LLM_CACHE_KIND } from '../activities/llm/llm-cache';
import { DecodexClient } from '../cli/client';
import { spiderDatabasePath, spiderDev, type SpiderQuestion } from '../devkit/datasets';
import { startMariaDb } from '../devkit/mariadb';
import { findQdrantBinary, startQdrant, type RunningQdrant } from '../devkit/qdrant';
import { startWorkerProcess, type WorkerProcess } from '../devkit/worker-process';
import { causeChain, startBenchTemporal } from './bench-temporal';
import { childPids, commandOf, cpuSeconds } from './process-stats';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** `count` questions spread evenly over Spider dev (so every usable database takes part), one per distinct text. */
function pickQuestions(count: number): SpiderQuestion[] {
  const seen = new Set<string>();
  const usable = spiderDev().filter((q) => {
    const file = spiderDatabasePath(q.db_id);
    if (seen.has(q.question) || !existsSync(file) || statSync(file).size === 0) return false;
    seen.add(q.question);
    return true;
  });
  const stride = usable.length / count;
  return Array.from({ length: Math.min(count, usable.length) }, (_, i) => usable[Math.floor(i * stride)]);
}

async function startScriptedModel(answersFile: string): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, 'scripted-llm-process.ts'), '--pipeline', answersFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { baseUrl: chunk.toString().trim(), child };
}

const withChildren = (pid: number): number => cpuSeconds(pid) + childPids(pid).reduce((n, child) => n + cpuSeconds(child), 0);

async function main(): Promise<void> {
  const questions = pickQuestions(argument('questions', 200));
  const databases = [...new Set(questions.map((q) => q.db_id))];
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const work = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-scale-'));
  const temporal = await startBenchTemporal();
  const mariadb = await startMariaDb();
  const admin = await mysql.createConnection(mariadb.url);
  await admin.query('CREATE DATABASE IF NOT EXISTS decodex_bench_artifacts');
  const artifactsUrl = new URL('decodex_bench_artifacts', mariadb.url).toString();
  const binary = findQdrantBinary();
  let qdrant: RunningQdrant | null = null;
  if ('path' in binary) qdrant = await startQdrant(binary.path);
  else console.error(`no Qdrant (${binary.missing}): both workers read one embedded vector store`);
  const answersFile = path.join(work, 'answers.json');
  writeFileSync(answersFile, JSON.stringify(Object.fromEntries(questions.map((q) => [q.question, q.query]))));
  const model = await startScriptedModel(answersFile);

  const sharedHome = path.join(work, 'home-shared');
  const workerEnv = (n: number) => ({
    TEMPORAL_ADDRESS: temporal.address,
    DECODEX_QUEUE_PREFIX: 'scale.',
    DECODEX_HOME: qdrant ? path.join(work, `home-${n}`) : sharedHome,
    DECODEX_ARTIFACTS_URL: artifactsUrl,
    ...(qdrant ? { QDRANT_URL: qdrant.url } : {}),
    DECODEX_EMBEDDER: 'hashed',
    DECODEX_LLM_BASE_URL: model.baseUrl,
    DECODEX_LLM_MODEL: 'scripted',
    DECODEX_LLM_API_KEY: 'bench',
  });
  const startWorkers = async (count: number, tag: string) => {
    const started: WorkerProcess[] = [];
    // One after the other: each bundles the workflows at start, which is no part of the measure.
    for (let n = 0; n < count; n++) started.push(await startWorkerProcess(workerEnv(n), { timeoutMs: 300_000 }));
    console.error(`${tag}: ${count} worker process(es) running`);
    return started;
  };
  const client = await DecodexClient.connect({ address: temporal.address, queuePrefix: 'scale.' });
  const servicePids = (name: string) => childPids(process.pid).filter((pid) => commandOf(pid).includes(name));
  const parts = () => ({
    temporal_server: servicePids('temporal').reduce((n, pid) => n + withChildren(pid), 0),
    mariadb: servicePids('mariadbd').reduce((n, pid) => n + cpuSeconds(pid), 0),
    qdrant: qdrant ? cpuSeconds(qdrant.pid()) : 0,
    scripted_model: withChildren(model.child.pid!),
    client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });

  const print = (name: string, value: string | number) => {
    console.log(`${name}: ${value}`);
  };
  try {
    print('questions', questions.length);
    print('databases', databases.length);
    print('cpu_cores', os.cpus().length);
    print('vector_store', qdrant ? 'qdrant' : 'embedded');
    print('artifact_store', 'mysql');

    const preparing = await startWorkers(1, 'prepare');
    for (const db of databases) {
      await client.prepare({ database: spiderDatabasePath(db), config: { exploration: { useLlm: false } } }, { workflowId: `scale-prepare-${db}` });
    }
    for (const w of preparing) await w.stop();

    const rates: number[] = [];
    for (const count of [1, 2]) {
      await admin.query('DELETE FROM decodex_bench_artifacts.decodex_artifacts WHERE kind = ?', [LLM_CACHE_KIND]);
      const workers = await startWorkers(count, `phase ${count}`);
      const before = { ...parts(), workers: workers.reduce((n, w) => n + withChildren(w.pid), 0) };
      const t0 = performance.now();
      const outcomes = await Promise.all(
        questions.map((q, i) =>
          client.ask({ question: q.question, database: spiderDatabasePath(q.db_id) }, { workflowId: `scale-${count}-${i}` }).then(
            ({ result }) => result.outcome,
            (err) => `failed: ${causeChain(err)}`,
          ),
        ),
      );
      const seconds = (performance.now() - t0) / 1000;
      const after = { ...parts(), workers: workers.reduce((n, w) => n + withChildren(w.pid), 0) };
      for (const w of workers) await w.stop();
      const suffix = count === 1 ? '1_worker' : `${count}_workers`;
      const failures = outcomes.filter((o) => o.startsWith('failed'));
      if (failures.length) console.error(`${failures.length} runs failed, e.g. ${failures[0]}`);
      print(`answered_${suffix}`, outcomes.filter((o) => o === 'answered').length);
      print(`seconds_${suffix}`, seconds.toFixed(1));
      rates.push(questions.length / seconds);
      print(`questions_per_second_${suffix}`, rates[rates.length - 1].toFixed(2));
      for (const key of Object.keys(after) as (keyof typeof after)[]) print(`cpu_seconds_${key}_${suffix}`, (after[key] - before[key]).toFixed(1));
    }
    print('scale_ratio_2_workers', (rates[1] / rates[0]).toFixed(2));
  } finally {
    await client.close();
    model.child.stdin?.end();
    await admin.end();
    await qdrant?.dispose();
    await mariadb.stop();
    await temporal.teardown();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
