import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ALL_SEARCH_ATTRIBUTES, devServerSearchAttributeArgs } from '../../core/search-attributes';
import type { RuntimeConfig } from '../../core/runtime-config';
import { findTemporalCli } from './find-temporal-cli';

export interface TemporalEndpoint {
  address: string;
  namespace: string;
  /** Set when this process started the server; stopping it is then our job. */
  stop?: () => Promise<void>;
}

/**
 * Starts `temporal server start-dev` with a persistent SQLite file in the data directory, the
 * Web UI, and decodex's search attributes; resolves once the server answers and the attributes
 * are registered.
 */
export async function startEmbeddedServer(config: RuntimeConfig, log: (line: string) => void = () => {}): Promise<TemporalEndpoint> {
  const cli = findTemporalCli(config.temporalCli);
  mkdirSync(config.home, { recursive: true });
  const address = `127.0.0.1:${config.embeddedPort}`;
  const args = [
    'server', 'start-dev',
    '--db-filename', path.join(config.home, 'temporal.sqlite'),
    '--ip', '127.0.0.1',
    '--port', String(config.embeddedPort),
    '--ui-port', String(config.uiPort),
    '--namespace', config.namespace,
    '--log-level', 'error',
    ...devServerSearchAttributeArgs(),
  ];
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`temporal server start-dev exited with code ${exited}:\n${output}`);
    if (await serverIsReady(address, config.namespace)) {
      log(`Temporal dev server on ${address}, Web UI on ${config.uiUrl}`);
      return { address, namespace: config.namespace, stop: () => stopChild(child) };
    }
    await sleep(250);
  }
  await stopChild(child);
  throw new Error(`temporal server start-dev did not answer on ${address} within 60 s:\n${output}`);
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
 * The server to use: TEMPORAL_ADDRESS if set; else an embedded server already running on the
 * configured port (e.g. `decodex server` in another terminal); else a new embedded server.
 */
export async function ensureTemporal(config: RuntimeConfig, log?: (line: string) => void): Promise<TemporalEndpoint> {
  if (config.temporalAddress) return { address: config.temporalAddress, namespace: config.namespace };
  const local = `127.0.0.1:${config.embeddedPort}`;
  if (await serverIsReady(local, config.namespace)) return { address: local, namespace: config.namespace };
  return startEmbeddedServer(config, log);
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
