import { workflowUiLink, type RuntimeConfig } from '../core/runtime-config';
import type { TaskQueueName } from '../core/task-queues';

/** A run a command started (or attached to) and is waiting on. */
export interface WatchedRun {
  workflowId: string;
  runId: string;
  /** What it is, for the operator: "the question", "the preparation of /data/shop.sqlite", ... */
  what: string;
  /** The queues its work goes to: the ones a worker must poll for it to move. */
  queues: TaskQueueName[];
}

/**
 * What a command says when it stops waiting on a run that goes on (`--detach`, or Ctrl-C on a
 * long job): that it keeps running, what moves it now that this process's worker is gone, and how
 * to come back (`decodex follow`, which waits for and prints the result). Ctrl-C on `prepare`
 * once exited 130 silently while the preparation went on.
 */
export function detachedNotice(config: RuntimeConfig, run: WatchedRun, how: { signal?: string; ownWorkerStopped: boolean; unpolled: string[] }): string {
  const runsOne = `(\`npx decodex worker\`, or \`npx decodex follow ${run.workflowId}\`, which runs one)`;
  const unpolled = how.unpolled.map((q) => `"${q}"`).join(', ');
  const lines = [
    `${how.signal ? `interrupted (${how.signal}): ` : ''}${run.what} keeps running on the Temporal server as ${run.workflowId}.`,
    how.ownWorkerStopped
      ? `This command's own worker stopped with it: the run moves on when a decodex worker polls its task queues ${runsOne}.`
      : how.unpolled.length
        ? `No worker polls ${unpolled} right now: the run moves on when one does ${runsOne}.`
        : 'It moves on with the decodex workers that poll its task queues.',
    `Come back with: npx decodex follow ${run.workflowId}   (waits for the run and prints its result)`,
    `Web UI: ${workflowUiLink(config, run.workflowId, run.runId)}`,
  ];
  return lines.join('\n');
}
