import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * A real `decodex worker` process (demos kill it with SIGKILL), with exactly the given
 * environment plus PATH and HOME; resolves once it polls its queues.
 */
export async function startWorkerProcess(queueArgs: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, '../../bin/decodex.js'), 'worker', ...queueArgs], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('workers running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it ran:\n${output}`)));
  });
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  return child;
}
