import type { WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { outlastServerOutage } from './outlast-server-outage';

/** How long a finished follow waits for its last progress poll before returning anyway. */
const FINAL_POLL_WAIT_MS = 5_000;

/**
 * A long job's result (across continue-as-new, and through a Temporal server restart), reporting
 * its progress query's answer whenever it changes (as `key` compares). Between runs of a chain
 * nothing answers the query; the next poll will.
 */
export async function followWorkflow<R, P>(
  handle: WorkflowHandle,
  query: QueryDefinition<P, []>,
  onProgress: (p: P) => void,
  options: { pollMs: number; key?: (p: P) => string },
): Promise<R> {
  const key = options.key ?? ((p: P) => JSON.stringify(p));
  let last = '';
  let polling: Promise<void> | undefined;
  const timer = setInterval(() => {
    polling ??= handle
      .query(query)
      .then(
        (p) => {
          if (key(p) !== last) onProgress(p);
          last = key(p);
        },
        () => {},
      )
      .finally(() => (polling = undefined));
  }, options.pollMs);
  try {
    return (await outlastServerOutage(() => handle.result(), { probe: () => handle.client.workflowService.getSystemInfo({}) })) as R;
  } finally {
    clearInterval(timer);
    // A poll still under way would retry on a connection the caller may close next, and fail
    // from a timer nobody awaits ('Channel has been shut down'): let it settle first (bounded).
    await Promise.race([polling, new Promise((resolve) => setTimeout(resolve, FINAL_POLL_WAIT_MS).unref())]);
  }
}
