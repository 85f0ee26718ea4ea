import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { ARTIFACT_KINDS } from '../../activities/prepared/preparation-artifacts';
import { startBenchmark } from '../../cli/benchmark-client';
import { DecodexClient } from '../../cli/client';
import { startEmbeddedServer } from '../../cli/temporal/embedded-server';
import type { TemporalEndpoint } from '../../core/temporal-endpoint';
import type { RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import type { PrepareDatabaseInput } from '../../core/preparation/preparation-types';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { encodeSqlValue, sqlValueKey } from '../../core/sql-value';
import { seededRandom } from '../../devkit/scripted-llm/faults';
import { startScriptedLlm, type RecordedRequest, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { DATASETS, spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { freePort } from '../../devkit/free-port';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { stopProcess } from '../../devkit/stop-process';
import { createSyntheticDatabase } from '../../devkit/synthetic-database';
import type { runBenchmark } from '../../workflows/run-benchmark';
import { startTestStack } from '../../devkit/test-workers';
import { startWorkerProcess } from '../../devkit/worker-process';
import Database from 'better-sqlite3';

/** Worker kills the run must at least see while work is in flight; the server restarts after the second. */
const MIN_KILLS = 4;
/**
 * Kills stop after this many, so the test checks durability rather than retry exhaustion: every
 * activity is allowed more attempts than there are interruptions (a kill fails at most one attempt
 * of each activity in flight on the victim, the server restart at most one more).
 */
const MAX_KILLS = 6;
const ATTEMPTS_BEYOND_INTERRUPTIONS = MAX_KILLS + 3;
/** A kill comes this many model requests after the last one (seeded random in the range): the run makes dozens. */
const KILL_EVERY_REQUESTS = { min: 3, max: 8 };
const SERVER_RESTART_AFTER_KILLS = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowKeys = (rows: unknown[][]) => rows.map((r) => r.map((v) => sqlValueKey(v as never)).join('|')).sort();

/** Every artifact of a prepared database except its manifest (which records when it was written), by kind and key. */
async function preparedArtifacts(store: ArtifactStore, databaseId: string): Promise<Record<string, unknown>> {
  const all: Record<string, unknown> = {};
  for (const kind of Object.values(ARTIFACT_KINDS)) {
    if (kind === ARTIFACT_KINDS.manifest) continue;
    for (const key of await store.list(kind, `${databaseId}/`)) all[`${kind}/${key}`] = await store.get(kind, key);
  }
  return all;
}

/** A completed model call whose identical twin reached the model again: the first must have been in flight at a kill or the restart. */
function repeatedCalls(requests: RecordedRequest[]): RecordedRequest[][] {
  const byPrompt = new Map<string, RecordedRequest[]>();
  for (const r of requests) {
    if (r.api !== 'chat' || r.status !== 200) continue;
    const key = JSON.stringify([r.body?.model, r.body?.messages, r.body?.response_format]);
    byPrompt.set(key, [...(byPrompt.get(key) ?? []), r]);
  }
  return [...byPrompt.values()].filter((calls) => calls.length > 1);
}

/**
 * Durability, automated: real `decodex worker` processes are SIGKILLed at seeded random moments
 * while a preparation, questions and a benchmark run, and the Temporal dev server is restarted
 * once on its SQLite file. Every workflow must complete with the same artifacts and answers as
 * an uninterrupted run, and a model call may reach the model twice only if it was in flight
 * when its worker died (completed calls are in the LLM cache).
 */
describe('durability under worker kills and a server restart', () => {
  let llm: ScriptedLlm;
  let server: TemporalEndpoint;
  const workers: ChildProcess[] = [];

  afterAll(async () => {
    await Promise.all(workers.map((w) => stopProcess(w, 5_000)));
    await server?.stop?.();
    await llm?.close();
  });

  it('completes every preparation, question and benchmark exactly once, with uncorrupted artifacts', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-chaos-'));
    const config = resolveRuntimeConfig(
      { DECODEX_HOME: home, DECODEX_TEMPORAL_PORT: String(await freePort()), DECODEX_UI_PORT: String(await freePort()) },
      process.cwd(),
    );
    server = await startEmbeddedServer(config);

    const asked = spiderDev()
      .filter((q) => q.db_id === 'pets_1')
      .slice(0, 6);
    const benchmarked = spiderDev().slice(0, 8); // concert_singer: no question in common with `asked`
    const answers = new Map([...asked, ...benchmarked].map((q) => [q.question, q.query]));
    // Each answer takes 300 ms, so kills land on calls in flight.
    llm = await startScriptedLlm({ rules: [...scriptedExplorationRules, ...scriptedPipeline(answers)], latencyMs: 300 });
    const llmEnv = { DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'test-key' };
    const queuePrefix = 'chaos.';
    const workerEnv = { ...llmEnv, TEMPORAL_ADDRESS: server.address, DECODEX_QUEUE_PREFIX: queuePrefix, DECODEX_HOME: home, DECODEX_EMBEDDER: 'hashed' };
    workers.push((await startWorkerProcess(workerEnv)).child, (await startWorkerProcess(workerEnv)).child);
    const client = await DecodexClient.connect({ address: server.address, queuePrefix });

    const synthetic = createSyntheticDatabase(mkdtempSync(path.join(os.tmpdir(), 'decodex-chaos-db-')), { tables: 5, columns: 12, rows: 4000 });
    const preparation: PrepareDatabaseInput = {
      database: synthetic,
      limits: { parallelTables: 1, heartbeatTimeoutMs: 5_000, maxAttempts: ATTEMPTS_BEYOND_INTERRUPTIONS },
      config: { index: { valuesPerColumn: 100 }, exploration: { maxCandidatePairs: 4 } },
    };
    const benchmark: RunBenchmarkInput = {
      benchmarkId: 'chaos-bench',
      // The whole pipeline (about ten model calls a question), one question at a time: the
      // benchmark outlasts several kills.
      dataset: 'spider-dev',
      datasetsRoot: DATASETS,
      limit: benchmarked.length,
      evaluation: { evaluator: 'spider', timeoutMs: 30_000, vesRepetitions: 0 },
      concurrency: 1,
      reportDir: mkdtempSync(path.join(os.tmpdir(), 'decodex-chaos-report-')),
      questionLimits: { llmRetry: { maximumAttempts: ATTEMPTS_BEYOND_INTERRUPTIONS } },
    };
    const questionLimits = { heartbeatTimeoutMs: 5_000, llmRetry: { maximumAttempts: ATTEMPTS_BEYOND_INTERRUPTIONS } };

    // Everything starts at once; the chaos goes on until all of it has finished.
    const prepared = await client.startPreparation(preparation);
    const bench = await startBenchmark(client.client, benchmark, queuePrefix);
    const questions = asked.map((q) => client.ask({ question: q.question, database: spiderDatabasePath('pets_1'), limits: questionLimits }));
    // Its result, across continue-as-new runs (no progress queries: a query to a killed worker's workflow waits for a timeout).
    const benchmarkDone = client.client.workflow.getHandle<typeof runBenchmark>(bench.workflowId).result();
    let finished = false;
    const everything = Promise.allSettled([prepared.handle.result(), benchmarkDone, ...questions]).finally(() => (finished = true));

    // Chaos: kill a random worker and start another each time the model has seen a random number
    // of new requests (so every kill lands while work is in flight, however fast this machine is),
    // up to MAX_KILLS; restart the server once.
    const random = seededRandom(20261201);
    const interruptions: number[] = [];
    // Counted from the kill itself: the requests served while a new worker starts count too.
    const nextKillAt = (from: number) => from + KILL_EVERY_REQUESTS.min + Math.floor(random() * (KILL_EVERY_REQUESTS.max - KILL_EVERY_REQUESTS.min));
    let killAt = nextKillAt(0);
    let workersKilled = 0;
    while (!finished) {
      await Promise.race([sleep(100), everything]);
      if (finished || llm.requests.length < killAt || workersKilled === MAX_KILLS) continue;
      workersKilled++;
      const victim = Math.floor(random() * workers.length);
      workers[victim].kill('SIGKILL');
      interruptions.push(Date.now());
      killAt = nextKillAt(llm.requests.length);
      workers[victim] = (await startWorkerProcess(workerEnv)).child;
      if (interruptions.length === SERVER_RESTART_AFTER_KILLS) {
        await server.stop!();
        interruptions.push(Date.now());
        server = await startEmbeddedServer(config);
        interruptions.push(Date.now());
      }
    }
    // The kills overlapped the work, the server restart included.
    expect(interruptions.length).toBeGreaterThanOrEqual(MIN_KILLS + 2);

    // Every workflow completed.
    const preparedResult = await prepared.handle.result();
    expect(preparedResult.status).toBe('prepared');
    const { summary } = await benchmarkDone;
    expect(summary).toMatchObject({ questions: benchmarked.length, executableQuestions: benchmarked.length, correct: benchmarked.length });
    const report = JSON.parse(readFileSync(path.join(benchmark.reportDir!, 'report.json'), 'utf8')) as { records: { index: number }[] };
    expect(report.records.map((r) => r.index).sort((a, b) => a - b)).toEqual(benchmarked.map((_, i) => i));
    const pets = new Database(spiderDatabasePath('pets_1'), { readonly: true });
    try {
      const results = await Promise.all(questions);
      results.forEach(({ result }, i) => {
        expect(result.outcome).toBe('answered');
        const gold = pets.prepare(asked[i].query).safeIntegers(true).raw(true).all() as unknown[][];
        expect(rowKeys(result.rows)).toEqual(rowKeys(gold.map((r) => r.map(encodeSqlValue))));
      });
    } finally {
      pets.close();
    }

    // The reference run below asks the same model the same questions: only the calls so far count.
    const chaosRequests = [...llm.requests];

    // The artifacts are those of an uninterrupted preparation of the same database.
    const chaosStore = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
    const reference = await startTestStack(llmEnv);
    const referenceStore = openSqliteArtifactStore(reference.artifactsFile);
    try {
      const clean = await reference.client.prepare(preparation);
      expect(clean.result.databaseId).toBe(preparedResult.databaseId);
      const mine = await preparedArtifacts(chaosStore, preparedResult.databaseId);
      expect(Object.keys(mine).length).toBeGreaterThan(5);
      expect(mine).toEqual(await preparedArtifacts(referenceStore, clean.result.databaseId));
      expect(preparedResult.manifest.counts).toEqual(clean.result.manifest.counts);
    } finally {
      await reference.stop();
      await referenceStore.close();
      await chaosStore.close();
    }

    // No paid call reached the model twice unless it was in flight when a worker died or the server went away.
    const repeats = repeatedCalls(chaosRequests);
    for (const calls of repeats) {
      const first = calls[0];
      const inFlight = interruptions.some((t) => first.arrivedAt <= t && t <= first.arrivedAt + first.elapsedMs + 2_000);
      expect({ prompt: first.prompt?.user.slice(0, 80), inFlight }).toEqual({ prompt: first.prompt?.user.slice(0, 80), inFlight: true });
    }
    await client.close();
  }, 600_000);
});
