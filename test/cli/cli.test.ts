import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm } from '../scripted-llm/server';
import { spiderDatabasePath } from '../support/datasets';
import { scriptedGenerator } from '../support/gold-generator-rule';
import { runCli } from '../support/run-cli';

describe('the decodex command', () => {
  const home = () => mkdtempSync(path.join(os.tmpdir(), 'decodex-cli-'));

  it('demo with no LLM configured stops at once and names what to set', async () => {
    const run = await runCli(['demo'], { DECODEX_HOME: home() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/DECODEX_LLM_BASE_URL/);
    expect(run.stderr).toMatch(/DECODEX_LLM_MODEL/);
    expect(run.ms).toBeLessThan(20_000);
  });

  it('ask without --db explains its usage', async () => {
    const run = await runCli(['ask', 'How many singers?'], { DECODEX_HOME: home() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--db/);
  });

  it('ask answers a question over a Spider database through Temporal and prints SQL, rows and the UI link', async () => {
    const question = 'How many singers do we have?';
    const sql = 'SELECT count(*) FROM singer';
    const llm = await startScriptedLlm({ rules: [scriptedGenerator(new Map([[question, sql]]))] });
    try {
      const run = await runCli(['ask', '--db', spiderDatabasePath('concert_singer'), question], {
        DECODEX_HOME: home(),
        TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
        DECODEX_QUEUE_PREFIX: `cli${process.pid}.`,
        DECODEX_LLM_BASE_URL: llm.baseUrl,
        DECODEX_LLM_MODEL: 'scripted-sql',
        DECODEX_LLM_API_KEY: 'test-key',
      });
      expect(run.stderr + run.stdout).not.toMatch(/Error:/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/outcome: answered/);
      expect(run.stdout).toContain(sql);
      expect(run.stdout).toMatch(/count\(\*\)\s*\n\s*-+\s*\n\s*6\b/); // concert_singer has 6 singers
      expect(run.stdout).toMatch(/Web UI: http:\/\/localhost:8233\/namespaces\/default\/workflows\/answer-concert_singer-/);
    } finally {
      await llm.close();
    }
  });
});
