import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../devkit/run-cli';

describe('decodex bench', () => {
  it('gold as prediction: name: value lines, 100% of executable questions, reports written', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-cli-'));
    const out = path.join(home, 'report');
    const run = await runCli(['bench', '--dataset', 'spider-dev', '--gold-as-prediction', '--limit', '30', '--out', out], {
      DECODEX_HOME: home,
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `bench${process.pid}.`,
    });
    expect(run.stderr).not.toMatch(/decodex: /);
    expect(run.code).toBe(0);
    const values = Object.fromEntries(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
    );
    expect(values).toMatchObject({ dataset: 'spider-dev', mode: 'gold-as-prediction', questions: '30', executable_questions: '30', ex_executable: '1.0000' });
    expect(values.report_json).toBe(path.join(out, 'report.json'));
    for (const file of ['report.json', 'summary.md', 'chart.svg']) expect(existsSync(path.join(out, file))).toBe(true);
    expect(readFileSync(path.join(out, 'summary.md'), 'utf8')).toMatch(/EX \(%\)/);

    const compared = await runCli(['bench-compare', out, out], {});
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain('| EX (%) | 100.00 | 100.00 | +0.00 |');
  });

  it('explains a missing --dataset', async () => {
    const run = await runCli(['bench'], { DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-cli-')) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--dataset/);
  });

  it('refuses --databases with a JSONL dataset, which names its databases itself, instead of ignoring it', async () => {
    const run = await runCli(['bench', '--dataset', 'mine.jsonl', '--gold-as-prediction', '--databases', '/tmp'], {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-cli-')),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--databases applies to spider-dev, spider-train, spider-syn-train, bird-dev and bird-mini-dev/);
  });
});
