import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ALL_SEARCH_ATTRIBUTES, devServerSearchAttributeArgs } from '../../core/search-attributes';
import type { RuntimeConfig } from '../../core/runtime-config';
import { configuredTemporal, type TemporalConnectionSecurity } from './connection-options';
import { findTemporalCli } from './find-temporal-cli';
import { isProcessAlive } from './process-alive';

export interface TemporalEndpoint extends TemporalConnectionSecurity {
  address: string;
  namespace: string;
  /** Set when this process started the server in the foreground; stopping it is then our job. */
  stop?: () => Promise<void>;
  /** Set when this process started the server in the background, where it keeps running. */
  backgroundPid?: number;
}

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
    path.join(config.home, 'temporal.sqlite'),
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
  child.on('exit', (code) => (exited = code ?? -1));

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`temporal server start-dev exited with code ${exited}:\n${recentOutput()}`);
    if (await serverIsReady(address, config.namespace)) {
      log(`Temporal dev server on ${address}, Web UI on ${config.uiUrl}`);
      if (options.background) return { address, namespace: config.namespace, backgroundPid: child.pid };
      return { address, namespace: config.namespace, stop: () => stopChild(child) };
    }
    await sleep(250);
  }
  await stopChild(child);
  throw new Error(`temporal server start-dev did not answer on ${address} within 60 s:\n${recentOutput()}`);
}

/** True once the server answers and knows decodex's search attributes. */
export async function serverIsReady(address: string, namespace: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 1_000 });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    return ALL_SEARCH_ATTRIBUTES.every((key) => customAttributes && key.name in customAttributes);
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => {});
  }
}

/**
 * The server to use: TEMPORAL_ADDRESS if set (with its TLS and API key); else an embedded server already running on the
 * configured port (e.g. `decodex server` in another terminal); else a new embedded server.
 */
export async function ensureTemporal(config: RuntimeConfig, log?: (line: string) => void): Promise<TemporalEndpoint> {
  const configured = configuredTemporal(config);
  if (configured) return configured;
  const local = `127.0.0.1:${config.embeddedPort}`;
  if (await serverIsReady(local, config.namespace)) return { address: local, namespace: config.namespace };
  return startEmbeddedServer(config, { background: true, log });
}

/** Stops a server left running by `startEmbeddedServer({ background: true })`; false if none. */
export async function stopBackgroundServer(config: RuntimeConfig): Promise<boolean> {
  const pidFile = serverPidFile(config);
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  rmSync(pidFile);
  if (!isProcessAlive(pid)) return false;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; isProcessAlive(pid); waited += 100) {
    if (waited >= 10_000) process.kill(pid, 'SIGKILL');
    await sleep(100);
  }
  return true;
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
