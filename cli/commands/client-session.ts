import { Runtime } from '@temporalio/worker';
import type { RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import { loadDatabaseConnections, type DatabasePasswords } from '../../workers/build-deps';
import { runWorkers } from '../../workers/run-workers';
import { DecodexTemporalLogger } from '../../workers/temporal-logger';
import { DecodexClient } from '../client';
import { ensureTemporal } from '../temporal/embedded-server';
import { credentialsSetting, normalizeDatabaseSpec } from '../database-reference';
import { databaseFileProblem } from '../../activities/database/sqlite-file-problem';
import { log, UsageError } from './command';
import { noticeMissingWorkers } from './no-worker-notice';

export interface SessionOptions {
  /** Run no worker in this process (a `decodex worker` elsewhere serves the queues). */
  noWorker?: boolean;
  /** Queues the command needs: this process serves them, or (--no-worker) a worker elsewhere must. */
  queues?: TaskQueueName[];
  /** Database passwords from the command line: for the in-process worker only, never in a workflow input. */
  databasePasswords?: DatabasePasswords;
}

/**
 * `--db` of a command: the reference the workflow carries and, when the URL held a password, that
 * password for this process's own worker (a worker elsewhere must have it configured). Refused
 * before any server starts: a spec that is no database reference, and, when this process runs the
 * worker (so sees the files it will open), a SQLite path that names no SQLite file.
 */
export function databaseForCommand(
  config: RuntimeConfig,
  spec: string,
  noWorker: boolean | undefined,
): { database: string; databasePasswords: DatabasePasswords } {
  let normalized;
  try {
    normalized = normalizeDatabaseSpec(spec);
  } catch (err) {
    throw new UsageError(`--db: ${(err as Error).message}`);
  }
  const { reference, password } = normalized;
  if (!noWorker) refuseUnopenable(config, reference);
  if (password === undefined) return { database: reference, databasePasswords: new Map() };
  if (noWorker) {
    throw new UsageError(
      `--no-worker: the password in --db cannot reach a worker in another process (it is never put into a workflow); ` +
        `configure it on the worker (${credentialsSetting(reference)}) and pass --db <NAME> or --db ${reference}`,
    );
  }
  return { database: reference, databasePasswords: new Map([[reference, password]]) };
}

/**
 * What this process's worker would do first with the reference, done now: a connection name must
 * be configured, and the SQLite file it or the path names must be one. (The resolved spec may hold
 * a password: it is only checked, never printed.)
 */
function refuseUnopenable(config: RuntimeConfig, reference: string): void {
  let resolved;
  try {
    resolved = loadDatabaseConnections(config, process.env).resolve(reference);
  } catch (err) {
    throw new UsageError(`--db: ${(err as Error).message}`);
  }
  const problem = databaseFileProblem(resolved);
  if (problem) throw new UsageError(`--db: ${problem}`);
}

let quietRuntime = false;

/**
 * The in-process workers' routine INFO lines would bury the command's output; warnings still
 * show. Once per process, before anything else creates the Temporal runtime (a benchmark that
 * starts its own test server calls this first).
 */
export function installQuietRuntime(): void {
  if (quietRuntime) return;
  Runtime.install({ logger: new DecodexTemporalLogger('WARN', true) });
  quietRuntime = true;
}

/**
 * What every client command (ask, prepare, bench) does around its own work: find or start the
 * Temporal server, run in-process workers unless told not to, connect the typed client, and
 * always tear down what it started (a background server stays, so printed UI links work).
 */
export async function withClientSession<T>(config: RuntimeConfig, options: SessionOptions, work: (client: DecodexClient) => Promise<T>): Promise<T> {
  installQuietRuntime();
  const endpoint = await ensureTemporal(config, log);
  if (endpoint.backgroundPid) {
    log(
      `The Temporal dev server keeps running in the background (pid ${endpoint.backgroundPid}) so the Web UI link stays valid; stop it with \`npx decodex server --stop\`.`,
    );
  }
  const workers = options.noWorker ? null : await runWorkers(endpoint, config, options.queues ?? ALL_TASK_QUEUES, options.databasePasswords);
  // With --no-worker the files are the other worker's: it says what it cannot open.
  const client = await DecodexClient.connect({ ...endpoint, queuePrefix: config.queuePrefix, checkDatabaseFiles: !options.noWorker });
  const cancelNotice = options.noWorker ? noticeMissingWorkers(client, options.queues ?? ALL_TASK_QUEUES, config.queuePrefix ?? '', log) : () => {};
  try {
    return await work(client);
  } finally {
    cancelNotice();
    await client.close();
    await workers?.stop();
    await endpoint.stop?.();
  }
}
