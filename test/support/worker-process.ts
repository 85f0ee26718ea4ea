import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './run-cli';
import { stopProcess } from './stop-process';

const ROOT = path.resolve(__dirname, '../..');

export interface WorkerProcess {
  pid: number;
  /** The process itself, for demos and tests that kill it with SIGKILL as a crashed host. */
  child: ChildProcess;
  /** What the process printed so far (its INFO lines and errors), for failure messages. */
  output(): string;
  /** SIGTERM: the worker drains its tasks and closes its stores; SIGKILL after 20 s. */
  stop(): Promise<void>;
}

/**
 * `decodex worker` (the real command, bin/decodex.js; `args` e.g. `--queue offline`) in a process of its own with exactly the
 * given environment plus PATH, HOME and DECODEX_DATASETS, as a worker on another host would run;
 * resolves once it reports its workers running.
 */
export function startWorkerProcess(env: Record<string, string>, options: { args?: string[]; timeoutMs?: number } = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/decodex.js'), 'worker', ...(options.args ?? [])], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const handle: WorkerProcess = {
    pid: child.pid ?? -1,
    child,
    output: () => output,
    async stop() {
      process.removeListener('exit', killOnExit);
      await stopProcess(child);
    },
  };
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`decodex worker did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const ready = () => {
      if (!output.includes('workers running on')) return;
      clearTimeout(timer);
      child.stdout.off('data', ready);
      child.stderr.off('data', ready);
      resolve(handle);
    };
    child.stdout.on('data', ready);
    child.stderr.on('data', ready);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`decodex worker exited (${code}) before starting:\n${output}`));
    });
  });
}
