import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalCli } from '../cli/temporal/find-temporal-cli';
import { ALL_SEARCH_ATTRIBUTES } from '../core/search-attributes';

/** A Temporal dev server for a benchmark (decodex's search attributes registered) and the workflows bundled once. */
export async function startBenchTemporal(): Promise<{ env: TestWorkflowEnvironment; code: string }> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli(process.env.DECODEX_TEMPORAL_CLI ?? null) },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  });
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  return { env, code };
}
