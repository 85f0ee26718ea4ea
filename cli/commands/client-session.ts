import { Runtime } from '@temporalio/worker';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import { loadDatabaseConnections, type DatabasePasswords } from '../../workers/build-deps';
import { runWorkers, type RunningWorkers } from '../../workers/run-workers';
import { DecodexTemporalLogger } from '../../workers/temporal-logger';
import { DecodexClient } from '../client';
import { ensureTemporal } from '../temporal/embedded-server';
import type { TemporalEndpoint } from '../../core/temporal-endpoint';
import { detachedNotice, type WatchedRun } from '../detached-run';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { checkedDatabase, credentialsSetting } from '../database-reference';
import { log, UsageError } from './command';
import { noticeMissingWorkers, unpolledQueues } from './no-worker-notice';
import { catchInterrupts, Interrupted } from './interrupt';

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
 * password for this process's own worker (a worker elsewhere must have it configured: with
 * --no-worker or --detach, no worker of this process runs the run). Refused before any server
 * starts: a spec that is no database reference, and, unless --no-worker (the files are another
 * host's), a SQLite path that names no SQLite file.
 */
export function databaseForCommand(
  config: RuntimeConfig,
  spec: string,
  noWorker: boolean | undefined,
  detach?: boolean,
): { database: string; databasePasswords: DatabasePasswords } {
  let normalized;
  try {
    // What this process's worker would do first with the reference, done now: a connection name
    // must be configured, and the SQLite file it or the path names must be one. (The resolved spec
    // may hold a password: it is only checked, never printed.)
    normalized = checkedDatabase(spec, noWorker ? undefined : (reference) => loadDatabaseConnections(config, process.env).resolve(reference));
  } catch (err) {
    throw new UsageError(`--db: ${(err as Error).message}`);
  }
  const { reference, password } = normalized;
  if (password === undefined) return { database: reference, databasePasswords: new Map() };
  if (noWorker || detach) {
    throw new UsageError(
      `${noWorker ? '--no-worker' : '--detach'}: the password in --db cannot reach a worker in another process (it is never put into a workflow); ` +
        `configure it on the worker (${credentialsSetting(reference)}) and pass --db <NAME> or --db ${reference}`,
    );
  }
  return { database: reference, databasePasswords: new Map([[reference, password]]) };
}

let quietRuntime = false;

/**
 * The in-process workers' routine INFO lines would bury the command's output; warnings still
 * show. Once per process, before anything else creates the Temporal runtime (a benchmark that
 * starts its own test server calls this first). No shutdown signals: a command decides itself
 * what Ctrl-C and SIGTERM do to its run (cli/commands/interrupt.ts); the runtime's default
 * shut the workers down and left the command waiting for ever.
 */
export function installQuietRuntime(): void {
  if (quietRuntime) return;
  Runtime.install({ logger: new DecodexTemporalLogger('WARN', true), shutdownSignals: [] });
  quietRuntime = true;
}

/** What a command does with its run when interrupted: a question is cancelled, a long job keeps running. */
export type OnInterrupt = 'cancel' | 'detach';

export interface Session {
  /** From now on a SIGINT or SIGTERM cancels `run` or leaves it running (saying how to come back), then ends the command. */
  watch(run: WatchedRun, onInterrupt: OnInterrupt): void;
  /** `--detach`: says that `run` keeps running and how to follow it (`--json`: as JSON on stdout, else its id); exit code 0. */
  detach(run: WatchedRun, json: boolean | undefined): Promise<number>;
}

/** How long a cancelled question may take to end before it is terminated, and teardown after a signal before the process just exits. */
const CANCEL_WAIT_MS = 5_000;
const TEARDOWN_AFTER_SIGNAL_MS = 10_000;

/**
 * What every client command (ask, prepare, bench, follow) does around its own work: find or start
 * the Temporal server, run in-process workers unless told not to, connect the typed client, and
 * always tear down what it started (a background server stays, so printed UI links work). A
 * SIGINT or SIGTERM ends the work: the watched run is cancelled or reported as still running, the
 * workers stop, and `Interrupted` is thrown (runDecodex exits 130 or 143).
 */
export async function withClientSession<T>(
  config: RuntimeConfig,
  options: SessionOptions,
  work: (client: DecodexClient, session: Session) => Promise<T>,
): Promise<T> {
  installQuietRuntime();
  const interrupts = catchInterrupts();
  const queues = options.queues ?? ALL_TASK_QUEUES;
  let endpoint: TemporalEndpoint | undefined;
  let workers: RunningWorkers | undefined;
  let client: DecodexClient | undefined;
  let watched: { run: WatchedRun; onInterrupt: OnInterrupt } | undefined;
  let cancelNotice = () => {};
  const session: Session = {
    watch: (run, onInterrupt) => (watched = { run, onInterrupt }),
    async detach(run, json) {
      const unpolled = await unpolledQueues(client!, run.queues, config.queuePrefix).catch(() => []);
      log(detachedNotice(config, run, { ownWorkerStopped: false, unpolled }));
      const follow = `npx decodex follow ${run.workflowId}`;
      const uiLink = workflowUiLink(config, run.workflowId, run.runId);
      console.log(json ? JSON.stringify({ workflowId: run.workflowId, runId: run.runId, uiLink, follow }, null, 2) : run.workflowId);
      return 0;
    },
  };
  const body = async (): Promise<T> => {
    endpoint = await ensureTemporal(config, log);
    if (endpoint.backgroundPid) {
      log(
        `The Temporal dev server keeps running in the background (pid ${endpoint.backgroundPid}) so the Web UI link stays valid; stop it with \`npx decodex server --stop\`.`,
      );
    }
    workers = options.noWorker ? undefined : await runWorkers(endpoint, config, queues, options.databasePasswords);
    const address = endpoint.address;
    // A command's --db was checked before anything started (databaseForCommand; with --no-worker the
    // files are the other worker's, which says what it cannot open): the client only takes its reference.
    client = await DecodexClient.connect({
      ...endpoint,
      queuePrefix: config.queuePrefix,
      checkDatabaseFiles: false,
      onServerOutage: (error) =>
        log(`the Temporal server at ${address} does not answer (${error}); waiting for it: the run goes on once it is back (up to 10 min)`),
    });
    if (options.noWorker) cancelNotice = noticeMissingWorkers(client, queues, config.queuePrefix ?? '', log);
    // The command waits for a run its own workers serve: if one of them dies, say so instead of waiting for ever.
    return workers ? Promise.race([work(client, session), workers.stoppedEarly]) : work(client, session);
  };
  const running = body();
  let interrupted = false;
  try {
    const first = await Promise.race([running.then(() => null), interrupts.signal]);
    if (first === null) return await running;
    interrupted = true;
    running.catch(() => {}); // its wait ends with the client closed below
    if (client && watched) await answerInterrupt(config, client, watched, first, Boolean(workers));
    // A start under way at that moment may still have created a run: status lists it.
    else log(`interrupted (${first}) while starting; a run started in that moment is listed by \`npx decodex status\``);
    throw new Interrupted(first);
  } finally {
    cancelNotice();
    const teardown = async () => {
      await client?.close();
      await workers?.stop();
      await endpoint?.stop?.();
    };
    // After a signal, a worker draining an activity that ignores cancellation must not keep the process.
    await (interrupted ? Promise.race([teardown(), sleep(TEARDOWN_AFTER_SIGNAL_MS)]) : teardown());
    interrupts.dispose();
  }
}

/** Cancels the watched run (a question: terminated if it has not ended within 5 s) or says it keeps running. */
async function answerInterrupt(
  config: RuntimeConfig,
  client: DecodexClient,
  watched: { run: WatchedRun; onInterrupt: OnInterrupt },
  signal: string,
  ownWorker: boolean,
): Promise<void> {
  const { run } = watched;
  if (watched.onInterrupt === 'detach') {
    const unpolled = ownWorker ? [] : await unpolledQueues(client, run.queues, config.queuePrefix).catch(() => []);
    log(detachedNotice(config, run, { signal, ownWorkerStopped: ownWorker, unpolled }));
    return;
  }
  const handle = client.client.workflow.getHandle(run.workflowId);
  try {
    await handle.cancel();
    // This process's worker (still running) or another one ends the run as Cancelled.
    const ended = await Promise.race([
      handle.result().then(
        () => true,
        () => true,
      ),
      sleep(CANCEL_WAIT_MS).then(() => false),
    ]);
    if (!ended) await handle.terminate(`decodex: interrupted by ${signal}, and the cancellation was not taken up within ${CANCEL_WAIT_MS / 1000} s`);
    log(`interrupted (${signal}): ${run.what} ${run.workflowId} was ${ended ? 'cancelled' : 'terminated'}`);
  } catch (err) {
    log(`interrupted (${signal}): could not cancel ${run.workflowId} (${(err as Error).message}); it may still run: npx decodex follow ${run.workflowId}`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
