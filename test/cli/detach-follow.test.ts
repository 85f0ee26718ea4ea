import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { runCli } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';

/** `ask --detach` starts the question and returns; `follow` comes back to it, runs a worker, and prints the answer as `ask` would. */
test('ask --detach prints the run id and how to follow it; follow waits for it and prints the answer', async () => {
  const question = 'How many singers are on file?';
  const sql = 'SELECT count(*) FROM singer';
  const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[question, sql]])) });
  try {
    const env = {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-detach-')),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `detach${process.pid}.`,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test-key',
    };
    const detached = await runCli(['ask', '--detach', '--db', spiderDatabasePath('concert_singer'), question], env);
    expect(detached.code).toBe(0);
    const workflowId = detached.stdout.trim();
    expect(workflowId).toMatch(/^answer-concert_singer-[\w-]+$/);
    expect(detached.stderr).toContain(`the question keeps running on the Temporal server as ${workflowId}.`);
    // Nothing polls this prefix: the run waits, and the notice says so.
    expect(detached.stderr).toMatch(/No worker polls .*"detach\d+\.online".* right now/);
    expect(detached.stderr).toContain(`Come back with: npx decodex follow ${workflowId}`);
    expect(llm.requests).toEqual([]);

    const followed = await runCli(['follow', workflowId], env);
    expect(followed.code).toBe(0);
    expect(followed.stdout).toMatch(/outcome: answered/);
    expect(followed.stdout).toContain(sql);
    expect(followed.stdout).toMatch(/count\(\*\)\s*\n\s*-+\s*\n\s*6\b/);

    const unknown = await runCli(['follow', 'answer-nothing-like-this'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no run answer-nothing-like-this on this Temporal server/);
  } finally {
    await llm.close();
  }
}, 120_000);
