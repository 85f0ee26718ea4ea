import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startScriptedLlm, type ScriptedLlm, type ScriptRule } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { createRunningExampleDatabase } from '../support/running-example-database';
import { childEnv, runCli } from '../../devkit/run-cli';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';

const ROOT = path.resolve(__dirname, '../..');

/** Rules whose answers wait until `open()`: the run is mid-call when the test interrupts it. */
function gated(rules: ScriptRule[]): { rules: ScriptRule[]; open(): void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { rules: rules.map((r) => ({ ...r, reply: async (p) => (await gate, r.reply(p)) })), open: () => open() };
}

/** Pids of live processes whose command line holds `marker` (a word only this test's command lines carry). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * `command` in a process group of its own, as a shell runs a job; resolves once its stderr matches
 * `ready`, with a way to send a signal to the whole group (what Ctrl-C in a terminal does) and its end.
 */
function startJob(command: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    // 'close': every process of the job that held its output is gone too, not only the first one.
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${ready} within 90 s:\n${stderr}`)), 90_000);
    child.stderr.on('data', () => {
      if (ready.test(stderr)) {
        clearTimeout(timer);
        resolve(stderr);
      }
    });
    void ended.then(({ code }) => reject(new Error(`exited (${code}) before ${ready}:\n${stderr}`)));
  });
  return { child, started, ended, signalGroup: (signal: NodeJS.Signals) => process.kill(-child.pid!, signal) };
}

describe('interrupting a command', () => {
  let llm: ScriptedLlm;
  let temporal: { client: Client; connection: Connection };
  const gates: (() => void)[] = [];
  beforeAll(async () => {
    const connection = await Connection.connect({ address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS! });
    temporal = { connection, client: new Client({ connection }) };
  });
  afterAll(async () => {
    gates.forEach((open) => open());
    await llm?.close();
    await temporal?.connection.close();
  });

  it('`timeout npx decodex ask` (SIGTERM) cancels the question and leaves no decodex process behind', async () => {
    const marker = `timeoutmarker${process.pid}`;
    const question = `How many singers are there (${marker})?`;
    const gate = gated(scriptedPipeline(new Map([[question, 'SELECT count(*) FROM singer']])));
    gates.push(gate.open);
    llm = await startScriptedLlm({ rules: gate.rules });
    const env = {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-interrupt-')),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `interrupt${process.pid}.`,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test-key',
    };
    // timeout relays a SIGTERM it gets to the command and its process group, as when its time runs
    // out; sent once the question is under way, so the test does not depend on how fast ask starts.
    const job = startJob(['timeout', '300', 'npx', 'decodex', 'ask', '--db', spiderDatabasePath('concert_singer'), question], env, /started answer-\S+/);
    const stderr = await job.started;
    const workflowId = /started (answer-\S+)/.exec(stderr)![1];
    await new Promise((r) => setTimeout(r, 1_000)); // into the first model call
    process.kill(job.child.pid!, 'SIGTERM');
    const { code, signal, stderr: all } = await job.ended;
    // npm exec ends by the signal it relayed, and timeout then ends by it too.
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });

    expect(all).toMatch(new RegExp(`interrupted \\(SIGTERM\\): the question ${workflowId} was cancelled`));
    expect(processesWith(marker)).toEqual([]);
    const { status } = await temporal.client.workflow.getHandle(workflowId).describe();
    expect(status.name).toBe('CANCELLED');
  }, 120_000);

  it('Ctrl-C on prepare says the preparation keeps running and how to come back; `decodex follow` then prints its result', async () => {
    const marker = `ctrlcmarker${process.pid}`;
    const gate = gated(scriptedExplorationRules);
    gates.push(gate.open);
    llm?.setRules(gate.rules);
    llm ??= await startScriptedLlm({ rules: gate.rules });
    const database = createRunningExampleDatabase(mkdtempSync(path.join(os.tmpdir(), `decodex-${marker}-`)));
    const env = {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-interrupt-')),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `ctrlc${process.pid}.`,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test-key',
    };
    const job = startJob([process.execPath, 'bin/decodex.js', 'prepare', '--db', database], env, /preparing .*\n\s+http\S+/);
    await job.started;
    // Once the model is asked (triage waits at the gate), Ctrl-C: SIGINT to the whole foreground job.
    const asked = Date.now();
    while (!llm.requests.some((r) => r.roleGuess === 'triager') && Date.now() - asked < 60_000) await new Promise((r) => setTimeout(r, 200));
    job.signalGroup('SIGINT');
    const { code, stderr } = await job.ended;
    expect(code).toBe(130);
    const workflowId = /keeps running on the Temporal server as (prepare-\S+)\./.exec(stderr)?.[1];
    expect(workflowId).toBeDefined();
    expect(stderr).toMatch(/interrupted \(SIGINT\): the preparation of .* keeps running/);
    expect(stderr).toContain(`Come back with: npx decodex follow ${workflowId}`);
    expect(stderr).toMatch(/own worker stopped with it/);
    expect(processesWith(marker)).toEqual([]);
    expect((await temporal.client.workflow.getHandle(workflowId!).describe()).status.name).toBe('RUNNING');

    gate.open();
    const followed = await runCli(['follow', workflowId!], env);
    expect(followed.stderr).toMatch(/following the preparation/);
    expect(followed.code).toBe(0);
    expect(followed.stdout).toMatch(/status: prepared/);
  }, 180_000);
});
