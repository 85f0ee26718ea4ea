import path from 'node:path';
import type { WorkerSetOptions } from '../../devkit/test-workers';
import { startUntilReady, type WorkerProcess } from '../../devkit/worker-process';

/**
 * A worker set (test-workers.ts: the test's prebuilt workflow bundle, the LLM env it is given) in
 * a process of its own (worker-process-main.ts), so a test can SIGKILL it like a crashed host;
 * resolves once it polls its queues.
 */
export function startWorkerSetProcess(llmEnv: Record<string, string>, options: Omit<WorkerSetOptions, 'address' | 'codePath'>): Promise<WorkerProcess> {
  const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
  const codePath = process.env.DECODEX_TEST_WORKFLOW_BUNDLE!;
  const setup = JSON.stringify({ llmEnv, options: { ...options, address, codePath } });
  return startUntilReady(['--require', 'tsx/cjs', path.join(__dirname, 'worker-process-main.ts')], { DECODEX_TEST_WORKER_SETUP: setup }, 'ready');
}
