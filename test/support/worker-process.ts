import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const DECODEX = path.join(__dirname, '../../bin/decodex.js');

/**
 * A real `decodex worker` process (for the given queues, all by default) with exactly `env` plus
 * PATH and HOME; resolves once it polls its queues. Tests and demos kill it with SIGKILL to
 * play a crashed machine.
 */
export async function startWorkerProcess(env: Record<string, string>, queues: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [DECODEX, 'worker', ...queues.flatMap((q) => ['--queue', q])], {
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
  child.removeAllListeners('exit');
  return child;
}
