import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { bundleBenchWorkflows } from './bench-temporal';
import type { FloorActivities } from './load-floor-workflow';

export interface FloorRun {
  /** Seconds from start to result, per workflow. */
  seconds: number[];
  /** Σ(end-to-end − model wait) / Σ end-to-end: the same formula as decodex's figure. */
  overheadFraction: number;
}

/**
 * Temporal's own cost on this machine, measured beside decodex in the same run: `loadFloor`
 * workflows of the same shape as a decodex question (its activity count, one activity waiting
 * the model's latency), on the same server, started the same way. decodex cannot do better
 * than this; the gap between the two figures is what decodex itself adds.
 */
export async function startFloor(env: TestWorkflowEnvironment, connection: NativeConnection, taskQueue: string) {
  const code = await bundleBenchWorkflows(require.resolve('./load-floor-workflow'));
  const activities: FloorActivities = {
    waitLikeTheModel: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    returnAtOnce: async (step) => step,
  };
  const worker = await Worker.create({ connection, taskQueue, workflowBundle: { code }, activities, maxConcurrentActivityTaskExecutions: 1000 });
  const running = worker.run();
  let started = 0;
  const one = async (activityCount: number, latencyMs: number): Promise<number> => {
    const t0 = performance.now();
    await env.client.workflow.execute('loadFloor', { taskQueue, workflowId: `load-floor-${started++}`, args: [activityCount, latencyMs] });
    return (performance.now() - t0) / 1000;
  };
  const summarize = (seconds: number[], latencyMs: number): FloorRun => {
    const total = seconds.reduce((n, s) => n + s, 0);
    return { seconds, overheadFraction: (total - (seconds.length * latencyMs) / 1000) / total };
  };
  return {
    /** `count` floor workflows started at the same moment. */
    async burst(count: number, activityCount: number, latencyMs: number): Promise<FloorRun> {
      return summarize(await Promise.all(Array.from({ length: count }, () => one(activityCount, latencyMs))), latencyMs);
    },
    /** `count` floor workflows one after another. */
    async oneAtATime(count: number, activityCount: number, latencyMs: number): Promise<FloorRun> {
      const seconds: number[] = [];
      for (let i = 0; i < count; i++) seconds.push(await one(activityCount, latencyMs));
      return summarize(seconds, latencyMs);
    },
    async stop(): Promise<void> {
      worker.shutdown();
      await running;
    },
  };
}
