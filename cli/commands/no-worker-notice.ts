import { temporal } from '@temporalio/proto';
import { taskQueue, type TaskQueueName } from '../../core/task-queues';
import type { DecodexClient } from '../client';

/** Long enough for a worker that is starting to poll, short enough that nobody waits in silence (asked twice, this far apart). */
export const NO_WORKER_NOTICE_AFTER_MS = 5_000;

const { TaskQueueType } = temporal.api.enums.v1;

/**
 * With --no-worker the run waits for a `decodex worker` elsewhere; when none polls, it would
 * wait silently forever. After `afterMs` this asks the server which of `queues` have no poller
 * (DescribeTaskQueue: workflow tasks on online/offline, activity tasks on llm), and again
 * `afterMs` later; a queue unpolled both times is named once, with how to start a worker. Asked
 * once only, a server that had just restarted (it forgets its pollers, and workers come back
 * within seconds) drew this notice beside running workers. Returns a function that cancels it.
 */
export function noticeMissingWorkers(
  client: DecodexClient,
  queues: TaskQueueName[],
  queuePrefix: string,
  log: (line: string) => void,
  afterMs = NO_WORKER_NOTICE_AFTER_MS,
): () => void {
  let timer: NodeJS.Timeout;
  const check = (earlier: string[] | null) => {
    timer = setTimeout(() => {
      void unpolledQueues(client, queues, queuePrefix).then(
        (missing) => {
          if (earlier === null) {
            if (missing.length) check(missing);
            return;
          }
          const still = missing.filter((q) => earlier.includes(q));
          if (still.length === 0) return;
          log(
            `No worker polls the task queue${still.length > 1 ? 's' : ''} ${still.map((q) => `"${q}"`).join(', ')}, so this run waits. ` +
              `Start one with \`npx decodex worker\` (same TEMPORAL_ADDRESS${queuePrefix ? ' and DECODEX_QUEUE_PREFIX' : ''}), or run without --no-worker.`,
          );
        },
        () => {}, // the notice is a courtesy: a failed check (the server is down) must not end the run
      );
    }, afterMs);
    timer.unref();
  };
  check(null);
  return () => clearTimeout(timer);
}

/** The names of `queues` (with the prefix) that no worker polls now. */
export async function unpolledQueues(client: DecodexClient, queues: TaskQueueName[], queuePrefix: string): Promise<string[]> {
  const missing: string[] = [];
  for (const queue of queues) {
    const name = taskQueue(queue, queuePrefix);
    // The llm queue hosts no workflows: its workers poll activity tasks only.
    const taskQueueType = queue === 'llm' ? TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY : TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW;
    const response = await client.client.workflowService.describeTaskQueue({ namespace: client.client.options.namespace, taskQueue: { name }, taskQueueType });
    if ((response.pollers ?? []).length === 0) missing.push(name);
  }
  return missing;
}
