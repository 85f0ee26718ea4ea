import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ALL_SEARCH_ATTRIBUTES, devServerSearchAttributeArgs } from '../../core/search-attributes';
import type { RuntimeConfig } from '../../core/runtime-config';
import type { TemporalEndpoint } from '../../core/temporal-endpoint';
import { configuredTemporal } from './connection-options';
import { findTemporalCli } from './find-temporal-cli';
import { isProcessAlive } from './process-alive';
import { embeddedServerPids, portAcceptsConnections, serverDatabaseFile } from './running-server';

export interface StartOptions {
  /**
   * Leave the server running after this process exits (detached, output to
   * `<home>/temporal.log`, pid in `<home>/temporal.pid`), so the Web UI links a command prints
   * keep working. `decodex server --stop` stops it.
   */
  background?: boolean;
  log?: (line: string) => void;
}

export const serverPidFile = (config: RuntimeConfig) => path.join(config.home, 'temporal.pid');
export const serverLogFile = (config: RuntimeConfig) => path.join(config.home, 'temporal.log');

/**
 * Starts `temporal server start-dev` with a persistent SQLite file in the data directory, the
 * Web UI, and decodex's search attributes; resolves once the server answers and the attributes
 * are registered.
 */
export async function startEmbeddedServer(config: RuntimeConfig, options: StartOptions = {}): Promise<TemporalEndpoint> {
  const log = options.log ?? (() => {});
  const cli = findTemporalCli(config.temporalCli);
  mkdirSync(config.home, { recursive: true });
  const address = `127.0.0.1:${config.embeddedPort}`;
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    serverDatabaseFile(config),
    '--ip',
    '127.0.0.1',
    '--port',
    String(config.embeddedPort),
    '--ui-port',
    String(config.uiPort),
    '--namespace',
    config.namespace,
    '--log-level',
    'error',
    ...devServerSearchAttributeArgs(),
  ];
  let output = '';
  let child: ChildProcess;
  if (options.background) {
    const logFd = openSync(serverLogFile(config), 'a');
    child = spawn(cli, args, { stdio: ['ignore', logFd, logFd], detached: true });
    closeSync(logFd);
    child.unref();
    writeFileSync(serverPidFile(config), String(child.pid));
  } else {
    child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }
  const recentOutput = () => (options.background ? readFileSync(serverLogFile(config), 'utf8').slice(-4000) : output);
  let exited: number | null = null;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('exit', (code) => (exited = code ?? -1));

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== null) {
      // A server that never served leaves no pid behind (`decodex server --stop` would find nothing to stop).
      if (options.background && existsSync(serverPidFile(config)) && readFileSync(serverPidFile(config), 'utf8') === String(child.pid))
        rmSync(serverPidFile(config), { force: true });
      throw new Error(`temporal server start-dev exited with code ${exited}:\n${recentOutput()}`);
    }
    if (await serverIsReady(address, config.namespace)) {
      log(`Temporal dev server on ${address}, Web UI on ${config.uiUrl}`);
      if (options.background) return { address, namespace: config.namespace, backgroundPid: child.pid };
      return { address, namespace: config.namespace, stop: () => stopChild(child), exited: exitedPromise };
    }
    await sleep(250);
  }
  await stopChild(child);
  throw new Error(`temporal server start-dev did not answer on ${address} within 60 s:\n${recentOutput()}`);
}

/** True once the server answers and knows decodex's search attributes. */
export async function serverIsReady(address: string, namespace: string, connectTimeoutMs = 1_000): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: connectTimeoutMs });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    return ALL_SEARCH_ATTRIBUTES.every((key) => customAttributes && key.name in customAttributes);
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => {});
  }
}

/** An embedded server already there: this home's (running or starting), or anything listening on the embedded port. */
export interface RunningServer {
  /** The home's server processes (empty when only the port tells, e.g. another home's server). */
  pids: number[];
  address: string;
}

export async function runningEmbeddedServer(config: RuntimeConfig): Promise<RunningServer | null> {
  const pids = embeddedServerPids(config) ?? [];
  const address = `127.0.0.1:${config.embeddedPort}`;
  // The kernel accepts a connection on a listening port however loaded the server is: unlike an RPC, this cannot time out into "no server".
  if (pids.length || (await portAcceptsConnections(config.embeddedPort))) return { pids, address };
  return null;
}

/** How long a server that is there may take to answer (starting, or slow under load) before decodex gives up on it. */
const READY_WAIT_MS = 90_000;

/**
 * The server to use: TEMPORAL_ADDRESS if set (with its TLS and API key); else the embedded server
 * already there (this home's, maybe still starting, or whatever listens on the embedded port),
 * waited for while it starts or is slow under load; else a new embedded server in the background.
 * A second server is never started beside a first: it would die with "address already in use".
 */
export async function ensureTemporal(config: RuntimeConfig, log?: (line: string) => void): Promise<TemporalEndpoint> {
  const configured = configuredTemporal(config);
  if (configured) return configured;
  const running = await runningEmbeddedServer(config);
  if (running) return waitUntilReady(config, running, log);
  try {
    return await startEmbeddedServer(config, { background: true, log });
  } catch (err) {
    // Another command started one in the same moment and won the port: use that one.
    const winner = await runningEmbeddedServer(config);
    if (!winner) throw err;
    return waitUntilReady(config, winner, log);
  }
}

async function waitUntilReady(config: RuntimeConfig, running: RunningServer, log?: (line: string) => void): Promise<TemporalEndpoint> {
  const deadline = Date.now() + READY_WAIT_MS;
  let said = false;
  while (!(await serverIsReady(running.address, config.namespace, 5_000))) {
    if (Date.now() > deadline) {
      throw new Error(
        `${running.address} accepts connections${running.pids.length ? ` (Temporal dev server pid ${running.pids.join(', ')})` : ''} but no Temporal server ` +
          `with decodex's search attributes answered there within ${READY_WAIT_MS / 1000} s; stop it (\`npx decodex server --stop\` for decodex's own) ` +
          'or choose another port (DECODEX_TEMPORAL_PORT)',
      );
    }
    if (!said) log?.(`waiting for the Temporal dev server on ${running.address} to answer...`);
    said = true;
    await sleep(500);
  }
  return { address: running.address, namespace: config.namespace };
}

/**
 * Stops this home's embedded server: the pid file's process and any `temporal server start-dev`
 * serving this home's database file (one whose pid file was lost or overwritten, or a `decodex
 * server` in another terminal). Returns the pids it stopped.
 */
export async function stopBackgroundServer(config: RuntimeConfig): Promise<number[]> {
  const pidFile = serverPidFile(config);
  const fromFile = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : NaN;
  // Where /proc tells which processes serve this home, only they are stopped (a pid file's pid may
  // have been reused by another process since); elsewhere the pid file is all there is.
  const pids = embeddedServerPids(config) ?? (Number.isInteger(fromFile) && isProcessAlive(fromFile) ? [fromFile] : []);
  rmSync(pidFile, { force: true });
  await Promise.all(pids.map(stopPid));
  return pids;
}

async function stopPid(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; isProcessAlive(pid); waited += 100) {
    if (waited >= 10_000) process.kill(pid, 'SIGKILL');
    await sleep(100);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
