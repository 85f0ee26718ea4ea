import type { WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { outlastServerOutage } from './outlast-server-outage';

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
  const timer = setInterval(() => {
    handle.query(query).then(
      (p) => {
        if (key(p) !== last) onProgress(p);
        last = key(p);
      },
      () => {},
    );
  }, options.pollMs);
  try {
    return (await outlastServerOutage(() => handle.result(), { probe: () => handle.client.workflowService.getSystemInfo({}) })) as R;
  } finally {
    clearInterval(timer);
  }
}
