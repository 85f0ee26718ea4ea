import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm, type ScriptedLlm, type ScriptRule } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { freePort } from '../../devkit/free-port';
import { runCli } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';
import { until } from '../support/until';

/** Rules whose answers for `held` wait until `open()`: that question is running while the test looks. */
function holding(rules: ScriptRule[], held: string): { rules: ScriptRule[]; open(): void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { rules: rules.map((r) => ({ ...r, reply: async (p) => (p.user.includes(held) ? await gate : undefined, r.reply(p)) })), open: () => open() };
}

describe('decodex status', () => {
  let llm: ScriptedLlm | undefined;
  let stack: TestStack | undefined;
  let release = () => {};
  afterAll(async () => {
    release();
    await stack?.stop();
    await llm?.close();
  });

  it('with no server says so, how to start one, and exits 1', async () => {
    const run = await runCli(['status'], {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-status-')),
      DECODEX_TEMPORAL_PORT: String(await freePort()),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Temporal server: not answering at 127\.0\.0\.1:\d+/);
    expect(run.stdout).toMatch(/npx decodex server/);
  });

  it("names the workers polling each of the deployment's queues, its running questions and its last failures", async () => {
    const running = 'How many singers are on file?';
    const failing = 'How many stadiums are on file?';
    const gate = holding(
      scriptedPipeline(
        new Map([
          [running, 'SELECT count(*) FROM singer'],
          [failing, 'SELECT nope FROM stadium'],
        ]),
        { revisedSql: () => 'SELECT nope FROM stadium' },
      ),
      running,
    );
    release = gate.open;
    llm = await startScriptedLlm({ rules: gate.rules });
    stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'test-key' });
    const env = {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-status-')),
      TEMPORAL_ADDRESS: stack.address,
      DECODEX_QUEUE_PREFIX: stack.queuePrefix,
    };
    const database = spiderDatabasePath('concert_singer');
    const failed = await stack.client.ask({ question: failing, database });
    expect(failed.result.outcome).toBe('execution_error');
    const waiting = await stack.client.startQuestion({ question: running, database });
    await until('the held question to reach the model', async () => llm!.requests.some((r) => r.prompt?.user.includes(running) ?? false));

    const run = await runCli(['status'], env);
    expect(run.code).toBe(0);
    const prefix = stack.queuePrefix.replace('.', '\\.');
    expect(run.stdout).toMatch(/Temporal server: answering at /);
    for (const queue of ['online', 'offline', 'llm']) expect(run.stdout).toMatch(new RegExp(`^  ${prefix}${queue}\\s+\\d+@\\S+ \\(\\d+ s ago\\)`, 'm'));
    expect(run.stdout).toMatch(/Running: 1\n\s+answerQuestion\s+answer-concert_singer-\S+\s+\(started \d+ s ago\)/);
    expect(run.stdout).toContain(waiting.workflowId);
    expect(run.stdout).toMatch(
      new RegExp(`Last failures:\\n\\s+answerQuestion\\s+${failed.workflowId}\\s+\\(failed, ended \\d+ s ago\\): execution_error: no such column: nope`),
    );

    // Another deployment's prefix sees none of this, and no worker.
    const other = await runCli(['status', '--json'], { ...env, DECODEX_QUEUE_PREFIX: 'nobody-here.' });
    const report = JSON.parse(other.stdout) as { queues: { pollers: unknown[] }[]; running: unknown[]; failures: unknown[] };
    expect(report.queues.map((q) => q.pollers.length)).toEqual([0, 0, 0]);
    expect(report.running).toEqual([]);
    expect(report.failures).toEqual([]);
  }, 120_000);
});
