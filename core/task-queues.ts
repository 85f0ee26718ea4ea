/**
 * decodex's three task queues. LLM calls get a queue of their own so that the `llm` worker's
 * concurrency bounds every model call in one place, and a long offline job cannot starve
 * interactive questions.
 *
 * An optional prefix (DECODEX_QUEUE_PREFIX, e.g. `team-a.`) gives isolated sets of queues on one
 * server: deployments with different models, or test files running side by side. A workflow
 * finds its prefix from the queue it runs on, so activities always go to the matching workers.
 */
export const TASK_QUEUES = {
  offline: 'offline',
  online: 'online',
  llm: 'llm',
} as const;

export type TaskQueueName = keyof typeof TASK_QUEUES;
export const ALL_TASK_QUEUES = Object.keys(TASK_QUEUES) as TaskQueueName[];

/**
 * The queues `prepareDatabase` uses. A process that only prepares runs no `online` worker: each
 * worker that hosts workflows has a sandbox of its own, about 70 MB whether it works or not.
 */
export const PREPARATION_TASK_QUEUES: TaskQueueName[] = ['offline', 'llm'];

export function taskQueue(name: TaskQueueName, prefix = ''): string {
  return prefix + TASK_QUEUES[name];
}

/**
 * The prefix of a decodex queue name (`team-a.online` → `team-a.`). A queue that is not one of
 * ours (e.g. the placeholder queue of a replay test) has no prefix: activities then go to the
 * plain queues, which is also where a replayed history recorded them unless a prefix was used.
 */
export function queuePrefixOf(queue: string): string {
  for (const name of ALL_TASK_QUEUES) {
    if (queue.endsWith(TASK_QUEUES[name])) return queue.slice(0, queue.length - TASK_QUEUES[name].length);
  }
  return '';
}
