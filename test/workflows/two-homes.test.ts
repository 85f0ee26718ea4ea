import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { DecodexClient } from '../../cli/client';
import { QdrantVectorStore } from '../../activities/vectors/qdrant-vector-store';
import type { AnswerQuestionResult } from '../../core/answer-question-types';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { createTestDatabase, testMysqlUrl, type TestDatabase } from '../../devkit/mariadb';
import { describeWithQdrant } from '../support/qdrant-tests';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { loadSpiderDatabase } from '../support/spider-to-mysql';
import { startWorkerProcess, type WorkerProcess } from '../../devkit/worker-process';

/** What retrieval and linking chose, comparable across runs. */
const linked = (r: AnswerQuestionResult) => ({
  focusedSchema: r.focusedSchema,
  retrieval: r.trace.find((t) => t.step === 'retrieveSchemaElements')?.outcome,
});

/**
 * Two `decodex worker` processes as on two hosts: each its own DECODEX_HOME (no disk shared
 * with the other), both on the test Temporal server, the MariaDB artifact store
 * (DECODEX_ARTIFACTS_URL), a real Qdrant, and a target database in MariaDB. Each serves its own
 * queue prefix, so the test says which process does what: a database prepared through one is
 * answered through the other, which finds the preparation, the indices and the LLM cache.
 */
describeWithQdrant('two worker processes with different homes sharing MariaDB artifacts and Qdrant', 'server', (server) => {
  const tag = randomBytes(3).toString('hex');
  const questions = spiderDev()
    .filter((q) => q.db_id === 'concert_singer')
    .slice(0, 3);
  let llm: ScriptedLlm;
  let artifacts: TestDatabase;
  let target: { url: string };
  const homes: string[] = [];
  const workers: WorkerProcess[] = [];
  const clients: DecodexClient[] = [];

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map(questions.map((q) => [q.question, q.query] as [string, string]))) });
    artifacts = await createTestDatabase('two_homes');
    target = await loadSpiderDatabase(spiderDatabasePath('concert_singer'), testMysqlUrl(), { database: `two_homes_target_${tag}` });
    const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
    const shared = {
      TEMPORAL_ADDRESS: address,
      DECODEX_ARTIFACTS_URL: artifacts.url,
      QDRANT_URL: server().url,
      DECODEX_QDRANT_PREFIX: `two_homes_${tag}_`,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'k',
    };
    for (const host of ['a', 'b']) {
      const home = mkdtempSync(path.join(os.tmpdir(), `decodex-host-${host}-`));
      homes.push(home);
      const queuePrefix = `h${tag}${host}.`;
      // Started one after the other: two workflow bundles built at once double the wait on 2 cores.
      workers.push(await startWorkerProcess({ ...shared, DECODEX_HOME: home, DECODEX_QUEUE_PREFIX: queuePrefix }, { timeoutMs: 180_000 }));
      clients.push(await DecodexClient.connect({ address, queuePrefix }));
    }
  }, 400_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const w of workers) await w.stop();
    const qdrant = new QdrantVectorStore({ url: server().url, namespace: `two_homes_${tag}_` });
    for (const name of await qdrant.listCollections()) await qdrant.deleteCollection(name);
    await qdrant.close();
    await llm?.close();
    await artifacts?.drop();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('a database prepared through host A is answered through host B with the same retrieved columns', async () => {
    const [a, b] = clients;
    const { result: prepared } = await a.prepare(
      { database: target.url, config: { exploration: { useLlm: false } } },
      { workflowId: `two-homes-prepare-${tag}` },
    );
    expect(prepared.status).toBe('prepared');

    for (const q of questions) {
      const { result: onB } = await b.ask({ question: q.question, database: target.url });
      expect(onB.outcome).toBe('answered');
      expect(onB.sql).toBe(q.query);
      // B found A's preparation in the shared stores: it did not prepare again.
      expect(onB.trace.find((t) => t.step === 'prepareDatabase')).toBeUndefined();
      expect(onB.trace.find((t) => t.step === 'openQuestion')?.outcome).toMatch(/prepared/);

      const requestsBefore = llm.requests.length;
      const { result: onA } = await a.ask({ question: q.question, database: target.url });
      expect(onA.outcome).toBe('answered');
      expect(linked(onB).retrieval).toMatch(/\d+ columns?/);
      expect(linked(onB)).toEqual(linked(onA));
      // Every model answer B paid for is in the shared LLM cache: A asks the model nothing.
      expect(llm.requests.length).toBe(requestsBefore);
    }
    // Neither host kept artifacts or vectors on its own disk.
    for (const home of homes) {
      expect(existsSync(path.join(home, 'artifacts.sqlite'))).toBe(false);
      expect(readdirSync(home).filter((f) => f !== 'temporal.log')).toEqual([]);
    }
  }, 300_000);
});
