import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const ROOT = path.resolve(__dirname, '..');

/** Exactly `env`, plus what any child needs to run (PATH, HOME) and where the test data lives when this run was told (DECODEX_DATASETS). */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...(process.env.DECODEX_DATASETS ? { DECODEX_DATASETS: process.env.DECODEX_DATASETS } : {}),
    ...env,
  };
}

/**
 * Runs a Node script in its own process with exactly the given environment (plus PATH and HOME,
 * and where the test data lives when the run was told: DECODEX_DATASETS), from the repository
 * root; `nodeArgs` go before the script (e.g. `--require tsx/cjs`).
 */
export function runNodeScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: { nodeArgs?: string[]; timeoutMs?: number } = {},
): Promise<CliRun> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(script)} ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Runs the real `decodex` command (bin/decodex.js) with exactly the given environment. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<CliRun> {
  return runNodeScript(path.join(ROOT, 'bin/decodex.js'), args, env, { timeoutMs });
}

/**
 * Starts the real `decodex` command and resolves with its stderr once `pattern` appears in it,
 * then kills the process (for commands that would wait on: a workflow no worker serves).
 */
export function cliStderrUntil(args: string[], env: Record<string, string>, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/decodex.js'), ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]}: no ${pattern} in ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (pattern.test(stderr)) {
        clearTimeout(timer);
        resolve(stderr);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code}) before ${pattern}:\n${stderr}`));
    });
  }).finally(() => child.kill('SIGKILL'));
}
