import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { WorkerSetOptions } from './test-workers';

export interface WorkerSetProcess {
  child: ChildProcess;
  /** SIGKILL, as a crashed host; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Starts a worker set in its own process (same code as `decodex worker`); resolves once it polls its queues. */
export async function startWorkerSetProcess(
  llmEnv: Record<string, string>,
  options: Omit<WorkerSetOptions, 'address' | 'codePath'>,
): Promise<WorkerSetProcess> {
  const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
  const codePath = process.env.DECODEX_TEST_WORKFLOW_BUNDLE!;
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(__dirname, 'worker-process-main.ts')], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DECODEX_TEST_WORKER_SETUP: JSON.stringify({ llmEnv, options: { ...options, address, codePath } }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('ready')) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before it polled:\n${output}`)));
  });
  child.removeAllListeners('exit');
  return {
    child,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
