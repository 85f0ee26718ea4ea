import { defineQuery } from '@temporalio/workflow';
import type { BenchmarkProgress } from '../core/benchmark/benchmark-types';

/** Progress of a runBenchmark workflow (what `decodex bench` prints while it waits). */
export const benchmarkProgressQuery = defineQuery<BenchmarkProgress>('benchmarkProgress');
