import { Runtime } from '@temporalio/worker';
import type { RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import { runWorkers } from '../../workers/run-workers';
import { DecodexTemporalLogger } from '../../workers/temporal-logger';
import { DecodexClient } from '../client';
import { ensureTemporal } from '../temporal/embedded-server';
import { log } from './command';
import { noticeMissingWorkers } from './no-worker-notice';

export interface SessionOptions {
  /** Run no worker in this process (a `decodex worker` elsewhere serves the queues). */
  noWorker?: boolean;
  /** Queues the command needs: this process serves them, or (--no-worker) a worker elsewhere must. */
  queues?: TaskQueueName[];
}

let quietRuntime = false;

/**
 * The in-process workers' routine INFO lines would bury the command's output; warnings still
 * show. Once per process, before anything else creates the Temporal runtime (a benchmark that
 * starts its own test server calls this first).
 */
export function installQuietRuntime(): void {
  if (quietRuntime) return;
  Runtime.install({ logger: new DecodexTemporalLogger('WARN') });
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
  const workers = options.noWorker ? null : await runWorkers(endpoint, config, options.queues ?? ALL_TASK_QUEUES);
  const client = await DecodexClient.connect({ ...endpoint, queuePrefix: config.queuePrefix });
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
