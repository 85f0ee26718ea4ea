import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { MiningActivities } from '../../activities/mining/mining-activities';
import type { MiningLlmActivities } from '../../activities/mining/mining-llm-activities';
import { resolveLimits, type QuestionLimitsInput } from '../../core/question-limits';
import { queuePrefixOf, taskQueue } from '../../core/task-queues';

/**
 * A worker killed in the middle of a comparison or a model call is noticed within this much
 * (those activities heartbeat while they run), instead of at their start-to-close timeout.
 */
export const MINING_HEARTBEAT_TIMEOUT_MS = 15_000;

/**
 * The rule creator's activities, on the queues of the workflow's deployment: comparisons and the
 * store on `offline`, model calls on `llm` with the question runs' retry policy and attempt
 * timeout (`answer.limits`).
 */
export function miningActivities(limits: QuestionLimitsInput | undefined, sqlTimeoutMs: number) {
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = proxyActivities<MiningActivities>({
    taskQueue: taskQueue('offline', prefix),
    // Bookkeeping reads and writes the store; loading a training set takes seconds. Comparisons run
    // SQL: each of their queries is bounded by sqlTimeoutMs, and they heartbeat.
    startToCloseTimeout: 5 * 60_000 + 20 * sqlTimeoutMs,
    heartbeatTimeout: Math.max(MINING_HEARTBEAT_TIMEOUT_MS, 2 * sqlTimeoutMs + 5_000),
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['JobIdTaken', 'MiningJobMissing', 'DatasetUnavailable'] },
  });
  const { llmRetry, llmAttemptTimeoutMs } = resolveLimits(limits);
  const llm = proxyActivities<MiningLlmActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: llmAttemptTimeoutMs,
    heartbeatTimeout: MINING_HEARTBEAT_TIMEOUT_MS,
    retry: {
      maximumAttempts: llmRetry.maximumAttempts,
      initialInterval: llmRetry.initialIntervalMs,
      backoffCoefficient: llmRetry.backoffCoefficient,
    },
  });
  return { offline, llm, prefix };
}
