import { NativeConnection, type Worker } from '@temporalio/worker';
import type { TemporalEndpoint } from '../core/temporal-endpoint';
import type { RuntimeConfig } from '../core/runtime-config';
import type { TaskQueueName } from '../core/task-queues';
import { buildActivityDeps, type DatabasePasswords } from './build-deps';
import { loadEmbedders } from '../activities/embeddings/index-embedders';
import { createWorkers } from './create-workers';
import { firstUnaskedStop } from './worker-stopped';

export interface RunningWorkers {
  workers: Worker[];
  /** Settles when every worker has stopped: rejects with the first failure of one. */
  done: Promise<void>;
  /** Rejects (WorkerStopped) if a worker ends before `stop()` was called; never settles otherwise. */
  stoppedEarly: Promise<never>;
  /** Drains in-flight tasks, then closes databases and the connection (never throws a worker's earlier failure). */
  stop(): Promise<void>;
}

/** Starts workers for the given queues in this process (`passwords`: credentials the command was given, for its own worker only). */
export async function runWorkers(
  endpoint: TemporalEndpoint,
  config: RuntimeConfig,
  queues: TaskQueueName[],
  passwords?: DatabasePasswords,
): Promise<RunningWorkers> {
  const deps = await buildActivityDeps(config, process.env, passwords);
  let connection: NativeConnection | undefined;
  let workers: Worker[];
  try {
    // Workers that embed (online: questions; offline: preparation) load their models now.
    if (queues.some((q) => q !== 'llm')) await loadEmbedders(deps.embedders);
    connection = await NativeConnection.connect({ address: endpoint.address, tls: endpoint.tls, apiKey: endpoint.apiKey });
    const { onlineConcurrency, offlineConcurrency, llmConcurrency } = deps.sizing;
    workers = await createWorkers({
      connection,
      namespace: endpoint.namespace,
      queues,
      queuePrefix: config.queuePrefix,
      deps,
      llmConcurrency,
      onlineConcurrency,
      offlineConcurrency,
    });
  } catch (err) {
    // A server that refuses us (wrong address, certificate, key) must not leave the stores open.
    await connection?.close().catch(() => {});
    await deps.close();
    throw err;
  }
  const connected = connection;
  let stopping = false;
  const runs = workers.map((w) => w.run());
  // Once every worker has ended, however (a failed one leaves the others running until stop()).
  const done = Promise.allSettled(runs).then(async (ended) => {
    await deps.close();
    await connected.close();
    const failure = ended.find((e) => e.status === 'rejected');
    if (failure) throw failure.reason;
  });
  return {
    workers,
    done,
    stoppedEarly: firstUnaskedStop(
      runs,
      workers.map((w) => w.options.taskQueue),
      () => stopping,
    ),
    async stop() {
      stopping = true;
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      // A worker that failed before was reported then (stoppedEarly, or done to `decodex worker`).
      await done.catch(() => {});
    },
  };
}
