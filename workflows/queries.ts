import { defineQuery } from '@temporalio/workflow';
import type { TraceEvent } from '../core/run-trace';
import type { BenchmarkProgress } from '../core/benchmark/benchmark-types';
import type { DagReport } from '../core/dag/dag-report';
import type { DecompositionKbProgress } from '../core/knowledge/decomposition-kb-types';
import type { MiningProgress } from '../core/mining/mining-types';

/**
 * Every query a decodex workflow answers, defined once and imported by both the workflows and
 * the client (this file depends only on `defineQuery`, which is safe outside the workflow sandbox).
 */

/** Every run's steps so far: stage, step, timing, outcome and usage (the Web UI's trace view). */
export const traceQuery = defineQuery<TraceEvent[]>('trace');

/** A question's or a preparation's stage now, and how many of the planned stages are done. */
export const progressQuery = defineQuery<JobStepProgress>('progress');

/** Where a question or a preparation is: its step, how many of the step's (or the run's) parts are done, and what it works on. */
export interface JobStepProgress {
  step: string;
  done: number;
  total: number;
  detail?: string;
}

/** The complex route's live sub-question DAG: every revision, each node's state, SQL, rows; null before decomposition. */
export const dagQuery = defineQuery<DagReport | null>('dag');

/** Progress of a runBenchmark workflow (what `decodex bench` prints while it waits). */
export const benchmarkProgressQuery = defineQuery<BenchmarkProgress>('benchmarkProgress');

/** Progress of a mineRules job (what `decodex mine-rules` draws as its progress bar). */
export const miningProgressQuery = defineQuery<MiningProgress>('miningProgress');

/** Progress of a buildDecompositionKnowledge job. */
export const decompositionKbProgressQuery = defineQuery<DecompositionKbProgress>('decompositionKbProgress');
