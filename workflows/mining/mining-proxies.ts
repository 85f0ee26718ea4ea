import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { MiningActivities } from '../../activities/mining/mining-activities';
import type { MiningLlmActivities } from '../../activities/mining/mining-llm-activities';
import { DEFAULT_LIMITS } from '../../core/answer-question-types';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';

/**
 * The rule creator's activities, on the queues of the workflow's deployment: comparisons and the
 * store on `offline`, model calls on `llm` with the question runs' retry policy and timeout.
 */
export function miningActivities() {
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = proxyActivities<MiningActivities>({
    taskQueue: taskQueue('offline', prefix),
    startToCloseTimeout: 10 * 60_000,
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['MiningJobTaken', 'MiningJobMissing', 'DatasetUnavailable'] },
  });
  const { llmRetry, llmAttemptTimeoutMs } = DEFAULT_LIMITS;
  const llm = proxyActivities<MiningLlmActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: llmAttemptTimeoutMs,
    retry: { maximumAttempts: llmRetry.maximumAttempts, initialInterval: llmRetry.initialIntervalMs, backoffCoefficient: llmRetry.backoffCoefficient },
  });
  return { offline, llm, prefix };
}
