import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DecodexClient } from '../../cli/client';
import type { AnswerQuestionInput } from '../../core/answer-question-types';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { activityRecords } from '../../devkit/activity-history';
import { createThrombosis, expectedThrombosisRatio } from '../../devkit/appendix-d-databases';
import { createTestDatabase } from '../../devkit/mariadb';
import { scriptedDag } from '../../devkit/scripted-dag';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';
import type { WorkerProcess } from '../../devkit/worker-process';
import { startWorkerSetProcess } from '../support/worker-set-process';
import { until } from '../support/until';

/**
 * The complex route across worker processes: a node's large result is stored by reference in the
 * shared artifact store (MariaDB here), so the node downstream runs on another worker with a home
 * of its own (the first one gone); and a worker SIGKILLed in the
 * middle of a DAG leaves its finished nodes finished: nothing is executed or paid twice.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-dag-workers-'));
const large = createThrombosis(dir, 300, 'thrombosis_workers');

function plan(tag: string): { question: string; dag: SubQuestionDag; sql: [string, string][] } {
  return {
    question: `What is the male to female ratio among patients with abnormal uric acid ${tag}?`,
    dag: {
      nodes: [
        { id: 0, question: `Compute CAST(@[1] AS REAL) / @[2] ${tag}` },
        { id: 1, question: `Count distinct male patients among @[3] ${tag}` },
        { id: 2, question: `Count distinct female patients among @[3] ${tag}` },
        { id: 3, question: `Find the IDs of patients with abnormal uric acid ${tag}` },
      ],
      edges: [
        [0, 1],
        [0, 2],
        [1, 3],
        [2, 3],
      ],
    },
    sql: [
      [
        'Find the IDs',
        "SELECT DISTINCT l.ID FROM Laboratory l JOIN Patient p ON l.ID = p.ID WHERE (p.SEX = 'M' AND l.UA <= 8.0) OR (p.SEX = 'F' AND l.UA <= 6.5)",
      ],
      ['Count distinct male', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'M'"],
      ['Count distinct female', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'F'"],
      ['Compute CAST', 'SELECT CAST(@[1] AS REAL) / NULLIF(@[2], 0) AS ratio'],
    ],
  };
}

function deferred(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

describe('the complex route across worker processes', () => {
  let llm: ScriptedLlm;
  const processes: WorkerProcess[] = [];
  const stacks: TestStack[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let gate = deferred();
  const plans: ReturnType<typeof plan>[] = [];
  /** The judger's (scripted) questions; the direct path never answers here. */
  const directSql = new Map<string, string>();
  const use = (p: ReturnType<typeof plan>) => {
    plans.push(p);
    directSql.set(p.question, 'SELECT -1');
  };
  const llmEnv = () => ({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k', DECODEX_LLM_TIMEOUT_MS: '3000' });
  const input = (p: ReturnType<typeof plan>): AnswerQuestionInput => ({
    question: p.question,
    database: large,
    preset: 'decosearch',
    ablations: ['selector'],
    // A killed worker's model call is retried after this (the LLM queue's attempt timeout).
    limits: { llmAttemptTimeoutMs: 4000 },
  });
  const stepPrompts = (prefix: string, tag: string) => llm.requests.filter((r) => r.prompt?.user.includes(`Step: ${prefix}`) && r.prompt.user.includes(tag));

  beforeAll(async () => {
    llm = await startScriptedLlm({
      rules: [
        ...scriptedDag({
          decompose: (question) => plans.find((p) => p.question === question)!.dag,
          // The sub-questions of wave 1 wait for the test: the worker is stopped while they do.
          nodeSql: async (step) => {
            if (step.startsWith('Count distinct')) await gate.promise;
            for (const p of plans) for (const [prefix, sql] of p.sql) if (step.startsWith(prefix)) return sql;
            throw new Error(`no scripted SQL for ${step}`);
          },
        }),
        ...scriptedPipeline(directSql, { complex: () => true }),
      ],
    });
  }, 60_000);
  afterAll(async () => {
    for (const p of processes) await p.kill();
    for (const s of stacks) await s.stop();
    for (const c of cleanups) await c();
    await llm?.close();
  });

  it('a result of more than 100 rows is consumed downstream on a second worker with a home of its own, the first one stopped', async () => {
    const p = plan('(two workers)');
    use(p);
    gate = deferred();
    // Two hosts: each worker process has its own home; they share only the MariaDB artifact store.
    const artifacts = await createTestDatabase('dag_artifacts');
    cleanups.push(() => artifacts.drop());
    const artifactsUrl = artifacts.url;
    // Model calls in this process; the workflow and database work in worker processes.
    const llmStack = await startTestStack(llmEnv(), { queues: ['llm'], artifactsUrl });
    stacks.push(llmStack);
    const first = await startWorkerSetProcess(llmEnv(), { queues: ['online'], queuePrefix: llmStack.queuePrefix, artifactsUrl });
    processes.push(first);
    const started = await llmStack.client.startQuestion(input(p));
    await until('node 3 to finish on the first worker', async () => {
      const dag = await llmStack.client.dag(started.workflowId).catch(() => null);
      return dag?.nodes.find((n) => n.id === 3)?.state === 'done';
    });
    await first.kill();
    const second = await startWorkerSetProcess(llmEnv(), { queues: ['online'], queuePrefix: llmStack.queuePrefix, artifactsUrl });
    processes.push(second);
    gate.release();
    const result = await started.handle.result();

    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[expectedThrombosisRatio(300)]]);
    const n3 = result.dag!.nodes.find((n) => n.id === 3)!;
    expect(n3).toMatchObject({ passedAs: 'relation' });
    expect(n3.rowCount).toBeGreaterThan(100);
    const runs = (await activityRecords(started.handle)).filter((a) => a.name === 'executeNode');
    const worker = (id: number) => runs.find((a) => (a.input as { node: { id: number } }).node.id === id)!.identity;
    expect(worker(3)).toMatch(new RegExp(`^${first.pid}@`));
    for (const id of [1, 2, 0]) expect(worker(id)).toMatch(new RegExp(`^${second.pid}@`));
  }, 180_000);

  it("SIGKILL mid-DAG: on restart no finished node is executed again, and no finished node's model call is paid again", async () => {
    const p = plan('(crash)');
    use(p);
    gate = deferred();
    const queuePrefix = `crash${process.pid}.`;
    const artifactsFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-crash-')), 'artifacts.sqlite');
    const first = await startWorkerSetProcess(llmEnv(), { queuePrefix, artifactsFile });
    processes.push(first);
    const client = await DecodexClient.connect({ address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!, queuePrefix });
    try {
      const started = await client.startQuestion(input(p));
      // Half executed: node 3 done, nodes 1 and 2 waiting on their model calls in the first worker.
      await until('wave 1 in flight', async () => stepPrompts('Count distinct', '(crash)').length >= 2);
      expect((await client.dag(started.workflowId))!.nodes.find((n) => n.id === 3)!.state).toBe('done');
      await first.kill();
      const before = {
        decomposer: llm.requests.filter((r) => r.roleGuess === 'decomposer' && r.prompt?.user.includes('(crash)')).length,
        leaf: stepPrompts('Find the IDs', '(crash)').length,
      };
      const second = await startWorkerSetProcess(llmEnv(), { queuePrefix, artifactsFile });
      processes.push(second);
      gate.release();
      const result = await started.handle.result();

      expect(result.outcome).toBe('answered');
      expect(result.rows).toEqual([[expectedThrombosisRatio(300)]]);
      const records = await activityRecords(started.handle);
      const ofNode = (name: string, id: number) => records.filter((a) => a.name === name && (a.input as { node: { id: number } }).node.id === id);
      // The finished node: one execution, one attempt, by the first worker; its model call made once.
      expect(ofNode('executeNode', 3)).toHaveLength(1);
      expect(ofNode('executeNode', 3)[0]).toMatchObject({ attempt: 1, identity: expect.stringMatching(new RegExp(`^${first.pid}@`)) });
      expect(ofNode('generateNodeSql', 3)[0].attempt).toBe(1);
      expect(stepPrompts('Find the IDs', '(crash)')).toHaveLength(1);
      expect(before).toEqual({ decomposer: 1, leaf: 1 });
      expect(llm.requests.filter((r) => r.roleGuess === 'decomposer' && r.prompt?.user.includes('(crash)'))).toHaveLength(1);
      // The calls in flight at the kill were made again (at most once more each).
      for (const id of [1, 2]) expect(ofNode('generateNodeSql', id)[0].attempt).toBe(2);
      expect(stepPrompts('Count distinct', '(crash)').length).toBeLessThanOrEqual(4);
    } finally {
      await client.close();
    }
  }, 180_000);
});
