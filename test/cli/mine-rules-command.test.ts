import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { miningTrainingItems, writeTrainingJsonl } from '../support/mining-training-set';
import { FAILURE_KINDS, scriptedMiningRules } from '../../devkit/scripted-mining';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { runCli } from '../../devkit/run-cli';

/** `decodex mine-rules` as a user runs it: its own process and worker, the scripted LLM over HTTP. */
describe('decodex mine-rules', () => {
  let llm: ScriptedLlm;
  afterAll(async () => llm?.close());

  it('mines a JSONL training set with a progress bar and prints the rules it published', async () => {
    const items = miningTrainingItems();
    llm = await startScriptedLlm({
      rules: [
        ...scriptedMiningRules,
        ...scriptedPipeline(new Map(items.map((q) => [q.question, q.sql])), {
          pathSql: (question) => items.find((q) => q.question === question)?.wrong,
        }),
      ],
    });
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-mine-cli-'));
    const dataset = writeTrainingJsonl(home, items);
    const run = await runCli(
      ['mine-rules', '--dataset', dataset, '--sample', String(items.length), '--seed', '2', '--preset', 'quick', '--min-group-size', '3', '--concurrency', '4'],
      {
        DECODEX_HOME: home,
        TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
        DECODEX_QUEUE_PREFIX: `minecli${process.pid}.`,
        DECODEX_EMBEDDER: 'hashed',
        DECODEX_LLM_BASE_URL: llm.baseUrl,
        DECODEX_LLM_MODEL: 'scripted',
        DECODEX_LLM_API_KEY: 'k',
      },
      240_000,
    );
    expect(run.stderr).not.toMatch(/decodex: /);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/mining job mine-training-n20-s2/);
    expect(run.stderr).toMatch(/examples: no few-shot index is built; each question is never shown itself \(nor a copy of its text\)/);
    expect(run.stderr).toMatch(/^mining {5}\[#+\.*\] \d+\/20$/m);
    expect(run.stdout).toContain('status: completed');
    expect(run.stdout).toContain('questions mined: 20/20');
    expect(run.stdout).toMatch(/rules: 1 \(published as v0001\)/);
    expect(run.stdout).toContain(`[mined-1] ${FAILURE_KINDS.integerDivision.rule.gist}`);
    // hybrid (the default) leaves rules out; the user is told which presets read them
    expect(run.stdout).toContain('read by: dextersql (any other with --set correction.rules=true)');
  }, 300_000);
});
