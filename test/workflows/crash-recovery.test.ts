import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DecodexClient } from '../../cli/client';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { stopProcess } from '../../devkit/stop-process';
import { startWorkerProcess } from '../../devkit/worker-process';

const QUESTION = 'How many singers are there, counted the slow way?';
/** A few seconds of SQLite work, then the right answer: long enough to kill its worker mid-query. */
const SLOW_SQL =
  'SELECT count(*) FROM singer WHERE (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 40000000) SELECT count(*) FROM c) > 0';
const HEARTBEAT_TIMEOUT_MS = 10_000;

interface PendingActivity {
  name: string;
  attempt: number;
  started: boolean;
}

async function pendingActivities(handle: WorkflowHandle): Promise<PendingActivity[]> {
  const { raw } = await handle.describe();
  return (raw.pendingActivities ?? []).map((a) => ({
    name: a.activityType?.name ?? '',
    attempt: a.attempt ?? 0,
    started: a.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
  }));
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A worker killed (SIGKILL, as a crashed machine) in the middle of the question's query (with
 * one candidate, its diagnosis is the one execution, `diagnoseSql`): the activity
 * heartbeats while its query runs, so Temporal notices the dead worker after the heartbeat
 * timeout and retries on another worker, in seconds, not after the attempt's 60 s
 * start-to-close timeout.
 */
describe('a worker killed in the middle of a query', () => {
  let llm: ScriptedLlm;
  let client: DecodexClient;
  const workers: ChildProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[QUESTION, SLOW_SQL]])) });
    const queuePrefix = `crash${process.pid}.`;
    env = {
      TEMPORAL_ADDRESS: address,
      DECODEX_QUEUE_PREFIX: queuePrefix,
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-crash-')),
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted-sql',
      DECODEX_LLM_API_KEY: 'test-key',
    };
    client = await DecodexClient.connect({ address, queuePrefix });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => stopProcess(w, 5_000)));
    await client?.close();
    await llm?.close();
  });

  it('is retried on another worker within seconds, and the question is answered', async () => {
    workers.push((await startWorkerProcess(env)).child);
    const { handle } = await client.startQuestion({ question: QUESTION, database: spiderDatabasePath('concert_singer'), preset: 'quick' });
    await waitFor(
      'diagnoseSql to run',
      async () => (await pendingActivities(handle)).find((a) => a.name === 'diagnoseSql' && a.attempt === 1 && a.started),
      60_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // inside the query now
    workers[0].kill('SIGKILL');
    const killedAt = Date.now();
    workers.push((await startWorkerProcess(env)).child);

    await waitFor('the retry of diagnoseSql', async () => (await pendingActivities(handle)).find((a) => a.name === 'diagnoseSql' && a.attempt >= 2), 60_000);
    const retriedAfterMs = Date.now() - killedAt;
    const result = await handle.result();

    expect(retriedAfterMs).toBeLessThan(HEARTBEAT_TIMEOUT_MS + 5_000);
    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[6]]);
  }, 120_000);
});
