import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './run-cli';
import { stopProcess } from './stop-process';

const ROOT = path.resolve(__dirname, '..');

export interface WorkerProcess {
  pid: number;
  /** The process itself, for demos and tests that kill it with SIGKILL as a crashed host. */
  child: ChildProcess;
  /** What the process printed so far (its INFO lines and errors), for failure messages. */
  output(): string;
  /** SIGTERM: the worker drains its tasks and closes its stores; SIGKILL after 20 s. */
  stop(): Promise<void>;
  /** SIGKILL, as a crashed host; resolves once the process is gone. */
  kill(): Promise<void>;
}

/**
 * `decodex worker` (the real command, bin/decodex.js; `args` e.g. `--queue offline`) in a process of its own with exactly the
 * given environment plus PATH, HOME and DECODEX_DATASETS, as a worker on another host would run;
 * resolves once it reports its workers running.
 */
export function startWorkerProcess(env: Record<string, string>, options: { args?: string[]; timeoutMs?: number } = {}): Promise<WorkerProcess> {
  return startUntilReady([path.join(ROOT, 'bin/decodex.js'), 'worker', ...(options.args ?? [])], env, 'workers running on', options.timeoutMs);
}

/**
 * A worker process for tests: Node with `args`, from the repository root, resolved once its output
 * contains `readyText` (worker-set-process.ts starts the tests' own worker sets this way).
 */
export function startUntilReady(args: string[], env: Record<string, string>, readyText: string, timeoutMs = 120_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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
    kill: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the worker process did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`the worker process exited (${code}) before starting:\n${output}`));
    };
    const ready = () => {
      if (!output.includes(readyText)) return;
      clearTimeout(timer);
      child.stdout.off('data', ready);
      child.stderr.off('data', ready);
      child.off('exit', onExit);
      resolve(handle);
    };
    child.stdout.on('data', ready);
    child.stderr.on('data', ready);
    child.once('exit', onExit);
  });
}
