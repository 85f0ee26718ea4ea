import { proxyActivities } from '@temporalio/workflow';

/** The floor's activities (bench/load-floor.ts): one waits as long as the LLM stand-in, the others return at once. */
export interface FloorActivities {
  waitLikeTheModel(ms: number): Promise<void>;
  returnAtOnce(step: number): Promise<number>;
}

const { waitLikeTheModel, returnAtOnce } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/**
 * A question with everything but decodex taken out: the same number of activities one after
 * another, the second waiting as long as the model does (a question opens the database, then
 * asks the model). What it costs is what Temporal itself costs on this machine.
 */
export async function loadFloor(activities: number, modelLatencyMs: number): Promise<void> {
  for (let step = 0; step < activities; step++) {
    if (step === 1) await waitLikeTheModel(modelLatencyMs);
    else await returnAtOnce(step);
  }
}
