import { pipelineCommand } from '../../cli/commands/pipeline';
import { runCli } from '../../devkit/run-cli';

/** `decodex pipeline` prints the configuration a run would use; it needs no server. */
describe('decodex pipeline', () => {
  it('--preset decosearch --ablation judger --json: every question decomposed; refinement and --set accepted', async () => {
    const judger = await runCli(['pipeline', '--preset', 'decosearch', '--ablation', 'judger', '--json'], {});
    expect(judger.code).toBe(0);
    expect(JSON.parse(judger.stdout)).toMatchObject({
      label: 'decosearch − judger',
      judging: { enabled: false },
      decomposition: { enabled: true, always: true },
      removed: [{ ablation: 'judger', removes: expect.stringMatching(/every question is decomposed/) }],
    });
    const set = await runCli(
      ['pipeline', '--preset', 'decosearch', '--ablation', 'refinement', '--set', 'decomposition.examples=5', '--set', 'correction.enabled=true', '--json'],
      {},
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      label: 'decosearch − refinement [decomposition.examples=5, correction.enabled=true]',
      decomposition: { maxRefinements: 0, examples: 5 },
      correction: { enabled: true },
    });
  });

  it('a bad --set is a usage error naming the valid choices, on pipeline as on ask and bench', async () => {
    const pipeline = await runCli(['pipeline', '--set', 'selection.threshold=0.5'], {});
    expect(pipeline.code).toBe(2);
    expect(pipeline.stderr).toContain('unknown setting selection.threshold; selection has enabled, confidenceThreshold, tournamentSize, setAsideWarned');
    const bench = await runCli(['bench', '--dataset', 'spider-dev', '--set', 'judging.enabled=maybe'], {});
    expect(bench.code).toBe(2);
    expect(bench.stderr).toContain('judging.enabled must be a boolean, got "maybe"');
    const ask = await runCli(['ask', '--db', 'x.sqlite', '--preset', 'dextersql', '--ablation', 'judger', 'q?'], {});
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('ablation "judger" removes nothing from preset "dextersql"');
  });

  it('every example in its help runs (an example that is refused teaches the wrong thing)', async () => {
    for (const example of pipelineCommand.examples) {
      const run = await runCli(example.replace(/^npx decodex /, '').split(' '), {});
      expect([example, run.code, run.stderr]).toEqual([example, 0, '']);
    }
  });
});
