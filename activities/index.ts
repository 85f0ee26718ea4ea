import type { ActivityDeps } from './activity-deps';
import { createBenchmarkActivities } from './benchmark/benchmark-activities';
import { createDecompositionKbActivities } from './knowledge/decomposition-kb-activities';
import { createFewShotJobActivities } from './knowledge/few-shot-job-activities';
import { createMiningActivities } from './mining/mining-activities';
import { createMiningLlmActivities } from './mining/mining-llm-activities';
import { keptAlive } from './heartbeat/activity-heartbeat';
import { createExplorationLlmActivities, createPreparationActivities } from './preparation/preparation-activities';
import { createQuestionLlmActivities, createQuestionOnlineActivities, questionLlmDeps } from './question-activities';

export type { ActivityDeps } from './activity-deps';

/**
 * Activities grouped by the task queue that runs them: database work on `online`, model
 * calls on `llm` (bounded there), long jobs on `offline`.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    // Queries and model calls heartbeat while they wait (see keptAlive); preparation's
    // activities heartbeat their progress themselves.
    online: keptAlive(createQuestionOnlineActivities(deps)),
    llm: keptAlive({
      ...createQuestionLlmActivities(deps),
      ...createExplorationLlmActivities({ llm: deps.llm, store: deps.artifacts }),
      ...createMiningLlmActivities(questionLlmDeps(deps)),
    }),
    offline: {
      ...keptAlive(createBenchmarkActivities(deps)),
      // The learning jobs' activities heartbeat their own progress.
      ...createMiningActivities({ databases: deps.databases, artifacts: deps.artifacts }),
      ...createDecompositionKbActivities({ databases: deps.databases, artifacts: deps.artifacts, vectors: deps.vectors, embedder: deps.embedders.questions }),
      ...createFewShotJobActivities({ artifacts: deps.artifacts, vectors: deps.vectors, databases: deps.databases }),
      ...createPreparationActivities({ databases: deps.databases, store: deps.artifacts, embedders: deps.embedders, vectors: deps.vectors }),
    },
  };
}
