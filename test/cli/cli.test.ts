import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { runCli } from '../../devkit/run-cli';

describe('the decodex command', () => {
  const home = () => mkdtempSync(path.join(os.tmpdir(), 'decodex-cli-'));

  it('demo with a local model file that is not there stops at once and says how to get a model', async () => {
    const run = await runCli(['demo'], { DECODEX_HOME: home(), DECODEX_LLM_LOCAL_MODEL: '/nowhere/model.gguf' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the local model file \/nowhere\/model\.gguf does not exist/);
    expect(run.stderr).toMatch(/npm run setup/);
    expect(run.stderr).toMatch(/DECODEX_LLM_LOCAL_MODEL/);
    expect(run.stderr).not.toMatch(/Temporal dev server/); // it failed before starting anything
    expect(run.ms).toBeLessThan(20_000);
  });

  it('demo with no LLM configured answers with the local model through Temporal and prints SQL, rows and the UI link', async () => {
    const run = await runCli(
      ['demo'],
      {
        DECODEX_HOME: home(),
        TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
        DECODEX_QUEUE_PREFIX: `clilocal${process.pid}.`,
      },
      240_000,
    );
    expect(run.stderr).toMatch(/llm: local model .*qwen2\.5-coder-1\.5b-instruct-q4_k_m\.gguf/);
    // A 270M model's SQL may well fail on the database; then the error is the honest answer.
    expect(run.stdout).toMatch(/outcome: (answered|execution_error)/);
    expect(run.stdout).toMatch(/preset:\s+quick/);
    expect(run.stdout).toMatch(/SQL:\n\s+SELECT/i);
    expect(run.stdout).toMatch(/\(\d+ prompt \+ \d+ completion\)/);
    expect(run.stdout).toMatch(/Web UI: http:\/\/localhost:8233\/namespaces\/default\/workflows\/answer-shop-/);
  }, 300_000);

  it('ask without --db explains its usage', async () => {
    const run = await runCli(['ask', 'How many singers?'], { DECODEX_HOME: home() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--db/);
  });

  it('ask answers a question over a Spider database through Temporal and prints SQL, rows and the UI link', async () => {
    const question = 'How many singers are on file?';
    const sql = 'SELECT count(*) FROM singer';
    const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[question, sql]])) });
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
      // A normal run shows no Temporal SDK warning (the llm worker has no workflows by design).
      expect(run.stderr).not.toMatch(/WARN|No workflows registered/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/outcome: answered/);
      expect(run.stdout).toContain(sql);
      expect(run.stdout).toMatch(/count\(\*\)\s*\n\s*-+\s*\n\s*6\b/); // concert_singer has 6 singers
      expect(run.stdout).toMatch(/Web UI: http:\/\/localhost:8233\/namespaces\/default\/workflows\/answer-concert_singer-/);
    } finally {
      await llm.close();
    }
  });

  it('prepare --no-llm prepares a Spider database with the preparation workers only, and no SDK warning', async () => {
    const run = await runCli(['prepare', '--db', spiderDatabasePath('concert_singer'), '--no-llm'], {
      DECODEX_HOME: home(),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `cliprep${process.pid}.`,
    });
    expect(run.stderr + run.stdout).not.toMatch(/Error:/);
    expect(run.stderr).not.toMatch(/WARN|No workflows registered/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/status: prepared/);
    expect(run.stdout).toMatch(/tables: 4 \(4 profiled now/);
  });
});
