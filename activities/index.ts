import type { ArtifactStore } from './artifacts/artifact-store';
import { createBenchmarkActivities } from './benchmark/benchmark-activities';
import { createDatabaseActivities } from './database/database-activities';
import type { DatabaseRegistry } from './database/database-registry';
import { createCorrectionActivities, createDiagnosisActivities } from './correction/correction-activities';
import { createDagExecutionActivities, createDecompositionActivities } from './decomposition/decomposition-activities';
import { createGenerationActivities } from './generation/generation-activities';
import { createJudgingActivities } from './judging/judging-activities';
import { createLinkingActivities, createRetrievalActivities } from './linking/linking-activities';
import { createDecompositionKbActivities } from './knowledge/decomposition-kb-activities';
import { createFewShotJobActivities } from './knowledge/few-shot-job-activities';
import { createMiningActivities } from './mining/mining-activities';
import { createMiningLlmActivities } from './mining/mining-llm-activities';
import { createNotesActivities } from './notes/notes-activities';
import { createSelectionActivities } from './selection/selection-activities';
import type { IndexEmbedders } from './embeddings/index-embedders';
import type { LlmService } from './llm/llm-service';
import { keptAlive } from './heartbeat/activity-heartbeat';
import { createExplorationLlmActivities, createPreparationActivities } from './preparation/preparation-activities';
import type { VectorStore } from './vectors/vector-store';

/** What activities need from the outside world; workers build it, tests inject their own. */
export interface ActivityDeps {
  databases: DatabaseRegistry;
  llm: LlmService;
  /** Stored results of long jobs (benchmark records, ...); the same store as the LLM cache. */
  artifacts: ArtifactStore;
  /** Embed column profiles and values for the profile and value indices (offline preparation). */
  embedders: IndexEmbedders;
  /** Where those indices live: the embedded store, or Qdrant when QDRANT_URL is set. */
  vectors: VectorStore;
}

/**
 * Activities grouped by the task queue that runs them: database work on `online`, model
 * calls on `llm` (bounded there), long jobs on `offline`.
 */
export function createActivities(deps: ActivityDeps) {
  const store = deps.artifacts;
  const question = { llm: deps.llm, databases: deps.databases, store };
  return {
    // Queries and model calls heartbeat while they wait (see keptAlive); preparation's
    // activities heartbeat their progress themselves.
    online: keptAlive({
      ...createDatabaseActivities(deps.databases),
      ...createRetrievalActivities({ databases: deps.databases, store, vectors: deps.vectors, embedders: deps.embedders }),
      ...createDiagnosisActivities({ databases: deps.databases, store }),
      ...createDagExecutionActivities({ databases: deps.databases, store }),
    }),
    llm: keptAlive({
      ...createLinkingActivities(question),
      ...createNotesActivities(question),
      ...createJudgingActivities(question),
      ...createDecompositionActivities({ ...question, vectors: deps.vectors, embedder: deps.embedders.questions }),
      ...createGenerationActivities({ ...question, vectors: deps.vectors }),
      ...createCorrectionActivities(question),
      ...createSelectionActivities(question),
      ...createExplorationLlmActivities({ llm: deps.llm, store }),
      ...createMiningLlmActivities(question),
    }),
    offline: {
      ...keptAlive(createBenchmarkActivities(deps)),
      // The learning jobs' activities heartbeat their own progress.
      ...createMiningActivities({ databases: deps.databases, artifacts: deps.artifacts }),
      ...createDecompositionKbActivities({ databases: deps.databases, artifacts: deps.artifacts, vectors: deps.vectors, embedder: deps.embedders.questions }),
      ...createFewShotJobActivities({ artifacts: deps.artifacts, vectors: deps.vectors }),
      ...createPreparationActivities({ databases: deps.databases, store: deps.artifacts, embedders: deps.embedders, vectors: deps.vectors }),
    },
  };
}
