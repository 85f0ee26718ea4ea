import type { Client } from '@temporalio/client';
import type { MineRulesInput, MineRulesResult, MiningProgress } from '../core/mining/mining-types';
import { validateMiningInput } from '../core/mining/mining-types';
import { pipelineLabel, resolvePipelineConfig } from '../core/pipeline/pipeline-config';
import { taskQueue } from '../core/task-queues';
import type { mineRules } from '../workflows/mine-rules';
import { miningProgressQuery } from '../workflows/queries';
import { followWorkflow } from './follow-workflow';

/**
 * Starts a rule-mining job under its id, or attaches to the one already running under it. A job
 * that ended (finished, stopped by its budget, terminated) is followed by a new run that mines
 * only the questions without a record, with the budget given now counting what was spent before.
 */
export async function startMining(client: Client, input: MineRulesInput, queuePrefix: string) {
  validateMiningInput(input);
  // An unknown preset or ablation is refused before the job starts, naming the valid ones.
  resolvePipelineConfig(input.answer.preset, input.answer.ablations, input.answer.pipeline);
  return client.workflow.start<typeof mineRules>('mineRules', {
    taskQueue: taskQueue('offline', queuePrefix),
    workflowId: input.jobId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    staticSummary: `mine correction rules from ${input.sample.size} ${input.dataset} questions (seed ${input.sample.seed})`,
    staticDetails: [
      `**dataset**: ${input.dataset}`,
      `**sample**: ${input.sample.size} questions, seed ${input.sample.seed}${input.sample.databases ? `, databases ${input.sample.databases.join(', ')}` : ''}`,
      `**pipeline**: ${pipelineLabel(resolvePipelineConfig(input.answer.preset, input.answer.ablations, input.answer.pipeline))}`,
      `**budget**: ${input.budget.maxTokens} tokens, ${input.budget.maxLlmCalls} calls${input.budget.maxCostUsd !== undefined ? `, $${input.budget.maxCostUsd}` : ''}`,
      `**clustering**: batches of ${input.clustering.batchSize}, groups of at least ${input.clustering.minGroupSize}`,
    ].join('\n'),
  });
}

/** Waits for the job (across continue-as-new), reporting its progress whenever it changes. */
export function waitForMining(client: Client, jobId: string, onProgress: (p: MiningProgress) => void, pollMs = 1000): Promise<MineRulesResult> {
  return followWorkflow<MineRulesResult, MiningProgress>(client.workflow.getHandle<typeof mineRules>(jobId), miningProgressQuery, onProgress, { pollMs });
}
