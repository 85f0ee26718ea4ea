import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalCli } from '../cli/temporal/find-temporal-cli';
import { ALL_SEARCH_ATTRIBUTES } from '../core/search-attributes';

/**
 * A Temporal dev server of the benchmark's own (the pinned CLI, decodex's search attributes, errors
 * only). The server is a child process that would outlive a bench stopped with Ctrl-C or `kill`:
 * those signals stop it first (a resumable bench then picks up where it stopped).
 */
export async function startBenchTemporal(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli(process.env.DECODEX_TEMPORAL_CLI ?? null) },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      console.error(`bench: ${signal}: stopping its Temporal server`);
      void env
        .teardown()
        .catch(() => undefined)
        .finally(() => process.exit(code));
    });
  }
  return env;
}

/** Workflows bundled once, for in-process benchmark workers: decodex's, or a bench's own. */
export async function bundleBenchWorkflows(workflowsPath: string = require.resolve('../workflows')): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  return code;
}

/** "Workflow execution failed" says little: every message down to the root cause. */
export function causeChain(err: unknown): string {
  const messages: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) messages.push(String(e.message));
  return messages.join(' <- ');
}
