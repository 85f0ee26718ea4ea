import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { stopProcess } from './stop-process';

/** The repository root: `../shared/bin/qdrant` is resolved from here, as the datasets are. */
const REPO_ROOT = path.resolve(__dirname, '..');

export type QdrantBinary = { path: string } | { missing: string };

/**
 * Where the Qdrant server binary is: QDRANT_BIN, then `../shared/bin/qdrant` beside the
 * checkout (see ../shared/bin/README.md), then `qdrant` on PATH. No registry ships the server,
 * so a missing binary is reported (with what was tried), not downloaded.
 */
export function findQdrantBinary(env: Record<string, string | undefined> = process.env): QdrantBinary {
  if (env.QDRANT_BIN) return existsSync(env.QDRANT_BIN) ? { path: env.QDRANT_BIN } : { missing: `QDRANT_BIN=${env.QDRANT_BIN} does not exist` };
  const beside = path.resolve(REPO_ROOT, '../shared/bin/qdrant');
  if (existsSync(beside)) return { path: beside };
  for (const dir of (env.PATH ?? '').split(':')) {
    const candidate = dir && path.join(dir, 'qdrant');
    if (candidate && existsSync(candidate)) return { path: candidate };
  }
  return { missing: `no Qdrant binary (QDRANT_BIN unset, no ${beside}, none on PATH)` };
}

export interface RunningQdrant {
  /** `http://127.0.0.1:PORT`, what QDRANT_URL would be. */
  url: string;
  /** The server process (for memory figures); changes on `start`. */
  pid(): number;
  /** Stops the process (SIGTERM, Qdrant's clean shutdown); the storage stays, so `start` finds the same collections. */
  stop(): Promise<void>;
  /**
   * SIGKILL, what an OOM kill or a lost machine does: connections drop at once (a clean stop
   * keeps serving open keep-alive connections until they go idle). The storage stays.
   */
  crash(): Promise<void>;
  /** Starts a stopped server again, on the same port and storage. */
  start(): Promise<void>;
  /** Stops the process and removes its storage. */
  dispose(): Promise<void>;
}

/**
 * A throw-away Qdrant server: its own storage and config under a temp directory (also its
 * working directory, where Qdrant drops an `.qdrant-initialized` marker), free HTTP and gRPC
 * ports on 127.0.0.1, ready when `/readyz` answers 200.
 */
export async function startQdrant(binary: string): Promise<RunningQdrant> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-qdrant-'));
  const httpPort = await freePort();
  const grpcPort = await freePort();
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'log_level: WARN',
      'telemetry_disabled: true',
      'storage:',
      `  storage_path: ${path.join(dir, 'storage')}`,
      `  snapshots_path: ${path.join(dir, 'snapshots')}`,
      'service:',
      '  host: 127.0.0.1',
      `  http_port: ${httpPort}`,
      `  grpc_port: ${grpcPort}`,
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${httpPort}`;
  const log = path.join(dir, 'qdrant.log');
  let server: ChildProcess | null = null;
  const killOnExit = () => server?.kill('SIGKILL');
  process.once('exit', killOnExit);

  const start = async () => {
    if (server) throw new Error(`Qdrant at ${url} is already running`);
    const out = openSync(log, 'a');
    const child = spawn(binary, ['--config-path', config], { cwd: dir, stdio: ['ignore', out, out] });
    closeSync(out);
    server = child;
    try {
      await waitUntilReady(child, url, log);
    } catch (err) {
      child.kill('SIGKILL');
      server = null;
      throw err;
    }
  };
  const stop = async (graceMs?: number) => {
    if (server) await stopProcess(server, graceMs);
    server = null;
  };

  try {
    await start();
  } catch (err) {
    process.removeListener('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    pid: () => {
      if (!server?.pid) throw new Error(`Qdrant at ${url} is not running`);
      return server.pid;
    },
    stop: () => stop(),
    crash: () => stop(0),
    start,
    dispose: async () => {
      await stop();
      process.removeListener('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilReady(server: ChildProcess, url: string, log: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let exited = false;
  server.once('exit', () => (exited = true));
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (exited || Date.now() > deadline) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '(no log)';
      throw new Error(`Qdrant did not start at ${url} (${exited ? 'it exited' : 'no /readyz within 30 s'}):\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
