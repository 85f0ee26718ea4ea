import { readdirSync } from 'node:fs';
import os from 'node:os';
import { bundleWorkflows } from '../../workers/bundle-workflows';

/**
 * Workers bundle their workflows in a child process (webpack's memory leaves with it); the
 * bundle is what a Worker loads, and the child's temporary folder does not outlive the call.
 */
describe('bundleWorkflows', () => {
  it('returns a bundle of every workflow decodex registers, and leaves no temporary folder', async () => {
    const before = readdirSync(os.tmpdir()).filter((f) => f.startsWith('decodex-workflow-bundle-'));
    const { code } = await bundleWorkflows();
    for (const name of ['answerQuestion', 'prepareDatabase', 'runBenchmark', 'mineRules', 'buildDecompositionKnowledge', 'buildFewShotIndex'])
      expect(code).toContain(name);
    // Temporal's bundler wraps the code for its workflow sandbox.
    expect(code).toContain('__TEMPORAL__');
    expect(readdirSync(os.tmpdir()).filter((f) => f.startsWith('decodex-workflow-bundle-'))).toEqual(before);
  }, 120_000);
});
