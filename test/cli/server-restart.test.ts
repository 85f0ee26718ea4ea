import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DecodexClient } from '../../cli/client';
import { startEmbeddedServer } from '../../cli/temporal/embedded-server';
import type { TemporalEndpoint } from '../../core/temporal-endpoint';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { startScriptedLlm, type ScriptedLlm, type ScriptRule } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { freePort } from '../../devkit/free-port';
import { childEnv } from '../../devkit/run-cli';
import { startWorkerProcess } from '../../devkit/worker-process';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';

const ROOT = path.resolve(__dirname, '../..');
/** As long as the issue's outage: past the SDK's own ~20 s of retries, which once ended `ask` with "Failed to get Workflow execution history". */
const OUTAGE_MS = 30_000;

/** Rules whose answers wait until `open()`: the questions are mid-call when the server goes away. */
function gated(rules: ScriptRule[]): { rules: ScriptRule[]; open(): void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { rules: rules.map((r) => ({ ...r, reply: async (p) => (await gate, r.reply(p)) })), open: () => open() };
}

type Context = () => Promise<string>;

/** `promise`, or a failure naming the phase that did not end in time (with what the caller can tell about it). */
async function within<T>(ms: number, phase: string, promise: Promise<T>, context: Context): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void context().then((said) => reject(new Error(`${phase}: not within ${ms / 1000} s\n${said}`)));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `ready` every 200 ms until it holds, or fails after `ms` naming the phase. */
async function until(ms: number, phase: string, ready: () => boolean, context: Context): Promise<void> {
  let givenUp = false;
  const poll = (async () => {
    while (!givenUp && !ready()) await new Promise((r) => setTimeout(r, 200));
  })();
  try {
    await within(ms, phase, poll, context);
  } finally {
    givenUp = true;
  }
}

/** Where a run stands, as the server tells it: status, pending activities, its last events (so a stuck run says where). */
async function describeRuns(address: string, workflowIds: string[]): Promise<string> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 5_000 });
    const client = new Client({ connection });
    const lines: string[] = [];
    for (const id of workflowIds) {
      const handle = client.workflow.getHandle(id);
      const d = await handle.describe();
      const pending = (d.raw.pendingActivities ?? []).map(
        (a) => `${a.activityType?.name} attempt ${a.attempt} state ${a.state}${a.lastFailure ? ` (${a.lastFailure.message})` : ''}`,
      );
      const events = (await handle.fetchHistory()).events ?? [];
      const last = events.slice(-8).map((e) => `${e.eventId} ${e.eventType}`);
      lines.push(`${id}: ${d.status.name}, ${d.historyLength} events; pending: ${pending.join('; ') || 'none'}; last: ${last.join(', ')}`);
    }
    return lines.join('\n');
  } catch (err) {
    return `(the server could not describe the runs: ${String(err)})`;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/**
 * The Temporal dev server (persisting to its SQLite file, as `decodex server` runs it) stops for
 * 30 s while `decodex ask` (with its own workers) and a DecodexClient (served by a `decodex worker`
 * process) wait for answers: both get them once it is back, and `ask` says nothing misleading
 * meanwhile (no "No worker polls", no failure).
 */
describe('a Temporal server restart during a question', () => {
  let llm: ScriptedLlm;
  let server: TemporalEndpoint | undefined;
  afterAll(async () => {
    await server?.stop?.();
    await llm?.close();
  });

  it('ask and DecodexClient.ask print the answer once the server is back', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-restart-'));
    const serverEnv = { DECODEX_HOME: home, DECODEX_TEMPORAL_PORT: String(await freePort()), DECODEX_UI_PORT: String(await freePort()) };
    const config = resolveRuntimeConfig(serverEnv, process.cwd());
    server = await startEmbeddedServer(config);

    const viaCli = 'How many singers are on file?';
    const viaClient = 'How many concerts are on file?';
    const gate = gated(
      scriptedPipeline(
        new Map([
          [viaCli, 'SELECT count(*) FROM singer'],
          [viaClient, 'SELECT count(*) FROM concert'],
        ]),
      ),
    );
    llm = await startScriptedLlm({ rules: gate.rules });
    const queuePrefix = `restart${process.pid}.`;
    // The client's question has queues of its own, served by a `decodex worker` process: served
    // by the ask process's workers, it was left without any once ask's own question ended first.
    const clientPrefix = `restart${process.pid}client.`;
    const env = {
      DECODEX_HOME: home,
      TEMPORAL_ADDRESS: server.address,
      DECODEX_QUEUE_PREFIX: queuePrefix,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test-key',
    };
    const worker = await startWorkerProcess({ ...env, DECODEX_QUEUE_PREFIX: clientPrefix });
    const ask = spawn(process.execPath, ['bin/decodex.js', 'ask', '--db', spiderDatabasePath('concert_singer'), viaCli], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    ask.stdout.on('data', (d) => (stdout += d));
    ask.stderr.on('data', (d) => (stderr += d));
    const askEnded = new Promise<number | null>((resolve) => ask.once('exit', (code) => resolve(code)));
    // Each phase has its own bound (together under the test's), so a slow or stuck run says where it stood.
    let clientRun: string | undefined;
    const context = async () => {
      const askRun = /started (answer-\S+)/.exec(stderr)?.[1];
      const runs = server
        ? await describeRuns(
            server.address,
            [askRun, clientRun].filter((id): id is string => !!id),
          )
        : '';
      return [
        `model requests: ${llm.requests.length}`,
        runs,
        `ask's stdout (last 1,000 characters):\n${stdout.slice(-1_000)}`,
        `ask's stderr (last 2,000 characters):\n${stderr.slice(-2_000)}`,
        `the worker's output (last 2,000 characters):\n${worker.output().slice(-2_000)}`,
      ].join('\n');
    };
    try {
      const client = await DecodexClient.connect({ address: server.address, queuePrefix: clientPrefix });
      await until(90_000, 'decodex ask starting its run', () => /started answer-/.test(stderr), context);
      const started = await client.startQuestion({ question: viaClient, database: spiderDatabasePath('concert_singer') });
      clientRun = started.workflowId;
      const clientAnswer = client.answer(started.workflowId).then((result) => ({ result }));
      clientAnswer.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
      // Both questions are waiting on the model when the server goes away.
      const bothAtModel = () => new Set(llm.requests.map((r) => r.prompt?.user.includes('concerts'))).size === 2;
      await until(90_000, 'both questions reaching the model', bothAtModel, context);

      await within(30_000, 'stopping the server', server.stop!(), context);
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      server = await within(90_000, 'restarting the server', startEmbeddedServer(config), context);
      gate.open();

      const { result } = await within(90_000, "the client's answer after the restart", clientAnswer, context);
      expect(result.outcome).toBe('answered');
      expect(result.rows).toEqual([[6]]);
      await client.close();
      expect(await within(60_000, 'decodex ask ending', askEnded, context)).toBe(0);
      expect(stdout).toMatch(/outcome: answered/);
      expect(stdout).toMatch(/count\(\*\)\s*\n\s*-+\s*\n\s*6\b/);
      expect(stderr).toMatch(/the Temporal server at \S+ does not answer .*; waiting for it/);
      expect(stderr).not.toMatch(/No worker polls|Failed to get|Error/);
    } finally {
      ask.kill('SIGKILL');
      await worker.stop();
    }
  }, 500_000);
});
