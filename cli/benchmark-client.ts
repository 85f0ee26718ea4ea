import type { Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { BenchmarkProgress, RunBenchmarkInput } from '../core/benchmark/benchmark-types';
import { formatOverrides } from '../core/pipeline/pipeline-config';
import { PRESET } from '../core/search-attributes';
import { taskQueue } from '../core/task-queues';
import { benchmarkProgressQuery } from '../workflows/queries';
import { followWorkflow } from './follow-workflow';
import type { runBenchmark, RunBenchmarkResult } from '../workflows/run-benchmark';

/**
 * Starts a benchmark under its id, or attaches to the one already running under it (a second
 * `decodex bench` after the first process died just waits for the same run). A finished or
 * terminated run under the id is followed by a new run that asks only the unfinished questions.
 */
export async function startBenchmark(client: Client, input: RunBenchmarkInput, queuePrefix: string) {
  return client.workflow.start<typeof runBenchmark>('runBenchmark', {
    taskQueue: taskQueue('offline', queuePrefix),
    workflowId: input.benchmarkId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    staticSummary: `benchmark ${input.dataset}${input.goldAsPrediction ? ' (gold as prediction)' : ''}`,
    staticDetails: [
      `**dataset**: ${input.dataset}`,
      input.preset ? `**preset**: ${input.preset}` : '',
      input.ablations?.length ? `**ablations**: ${input.ablations.join(', ')}` : '',
      input.pipeline ? `**settings**: ${formatOverrides(input.pipeline).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    ...(input.preset ? { typedSearchAttributes: new TypedSearchAttributes([{ key: PRESET, value: input.preset }]) } : {}),
  });
}

/** Waits for the run (across continue-as-new), reporting progress whenever it changes. */
export function waitForBenchmark(client: Client, workflowId: string, onProgress: (p: BenchmarkProgress) => void, pollMs = 3000): Promise<RunBenchmarkResult> {
  return followWorkflow<RunBenchmarkResult, BenchmarkProgress>(client.workflow.getHandle<typeof runBenchmark>(workflowId), benchmarkProgressQuery, onProgress, {
    pollMs,
    key: (p) => `${p.done}/${p.total}`,
  });
}
