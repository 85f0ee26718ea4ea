import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../devkit/run-cli';
import { UNUSED_LLM_ENV } from '../../devkit/test-workers';
import { BAD_LINES, PRODUCT_ROWS, writeOnlyBadExamples, writeUserExamples } from '../support/user-examples';

const ROOT = path.resolve(__dirname, '../..');

/** `decodex build-knowledge few-shot --sources <file.jsonl>` as a user runs it: its own process and worker, the file by a relative path. */
describe('decodex build-knowledge few-shot with a file of examples', () => {
  const env = (home: string) => ({
    ...UNUSED_LLM_ENV,
    DECODEX_HOME: home,
    TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
    DECODEX_QUEUE_PREFIX: `fewshotcli${process.pid}.`,
    DECODEX_EMBEDDER: 'hashed',
  });

  it('prints how many examples were indexed and rejected, and where and why the rejected ones failed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-few-shot-cli-'));
    const shop = writeUserExamples(dir);
    // The command runs from the repository: the path is resolved there before the job starts.
    const run = await runCli(['build-knowledge', 'few-shot', '--sources', path.relative(ROOT, shop.file), '--sql-timeout-ms', '3000'], env(dir), 120_000);
    expect(run.stderr).not.toMatch(/decodex: /);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/few-shot index job few-shot-index-examples\.jsonl-[0-9a-f]{8}/);
    expect(run.stdout).toMatch(/^few-shot index: 5 examples in dx-knowledge-few-shot-[0-9a-f]{12}$/m);
    expect(run.stdout).toContain(`${shop.file}: 5 indexed, 3 rejected`);
    expect(run.stdout).toContain('rejected: 3 examples whose SQL did not run:');
    expect(run.stdout).toMatch(new RegExp(`^  examples\\.jsonl:${BAD_LINES[0]} "What colour is each product\\?": sql_error: .*no such column: colour`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^  examples\\.jsonl:${BAD_LINES[1]} "Remove every product\\.": read_only_violation: rejected DELETE`, 'm'));
    expect(run.stdout).toMatch(
      new RegExp(`^  examples\\.jsonl:${BAD_LINES[2]} "Count every whole number\\.": timeout: query stopped after its 3000 ms timeout$`, 'm'),
    );
    expect(shop.productRows()).toBe(PRODUCT_ROWS);
  }, 180_000);

  it('ends with the reason, exit code 1, when no example of the file runs', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-few-shot-cli-'));
    writeUserExamples(dir);
    const file = writeOnlyBadExamples(dir);
    const run = await runCli(['build-knowledge', 'few-shot', '--sources', file], env(dir), 120_000);
    // The whole output with the code, so a failure says what the command printed instead.
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toMatchObject({ code: 1 });
    expect(run.stdout).toMatch(
      /^few-shot index: failed \(NoRunnableExamples: none of the 2 examples of .*broken\.jsonl could be run on its database, so none is indexed/m,
    );
  }, 180_000);

  it('refuses an unknown source and a timeout with nothing to run before any job starts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-few-shot-cli-'));
    const unknown = await runCli(['build-knowledge', 'few-shot', '--sources', 'spider-train,mine.json'], env(dir));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown few-shot source "mine\.json"/);
    const idle = await runCli(['build-knowledge', 'few-shot', '--sources', 'spider-train', '--sql-timeout-ms', '1000'], env(dir));
    expect(idle.code).toBe(2);
    expect(idle.stderr).toMatch(/--sql-timeout-ms bounds the run of each example of a \.jsonl file/);
  }, 120_000);
});
