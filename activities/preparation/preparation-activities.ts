import { findCandidatePairs, type FindCandidatePairsInput } from '../exploration/find-candidate-pairs';
import { measurePairStatistics, type MeasurePairStatisticsInput } from '../exploration/measure-pair-statistics';
import { synthesizeNote, type SynthesizeNoteInput } from '../exploration/synthesize-note';
import { triageAmbiguousPair, type ExplorationLlmDeps, type TriageAmbiguousPairInput } from '../exploration/triage-ambiguous-pair';
import { buildIndices, type BuildIndicesInput } from '../indexing/build-indices';
import { profileTables, type ProfileTablesInput } from '../profiling/profile-tables';
import { keepAlive } from '../heartbeat/activity-heartbeat';
import { inspectDatabase, type InspectDatabaseInput } from './inspect-database';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { publishPreparation, type PublishPreparationInput } from './publish-preparation';

/**
 * The offline preparation's activities (DexterSQL Phase 1), registered on the `offline` queue.
 * Each stage lives in the folder named after it (profiling/, indexing/, exploration/); this
 * only binds them to their dependencies. Every offline activity keeps its heartbeat alive while
 * it works (see keepAlive), so the workflow gives all of them one heartbeat timeout.
 */
export function createPreparationActivities(deps: PreparationDeps) {
  return {
    inspectDatabase: (input: InspectDatabaseInput) => keepAlive(() => inspectDatabase(deps, input)),
    profileTables: (input: ProfileTablesInput) => keepAlive(() => profileTables(deps, input)),
    buildIndices: (input: BuildIndicesInput) => keepAlive(() => buildIndices(deps, input)),
    findCandidatePairs: (input: FindCandidatePairsInput) => keepAlive(() => findCandidatePairs(deps, input)),
    measurePairStatistics: (input: MeasurePairStatisticsInput) => keepAlive(() => measurePairStatistics(deps, input)),
    publishPreparation: (input: PublishPreparationInput) => keepAlive(() => publishPreparation(deps, input)),
  };
}

/** The exploration steps that ask a model, registered on the `llm` queue (bounded there). */
export function createExplorationLlmActivities(deps: ExplorationLlmDeps) {
  return {
    triageAmbiguousPair: (input: TriageAmbiguousPairInput) => triageAmbiguousPair(deps, input),
    synthesizeNote: (input: SynthesizeNoteInput) => synthesizeNote(deps, input),
  };
}

export type PreparationActivities = ReturnType<typeof createPreparationActivities>;
export type ExplorationLlmActivities = ReturnType<typeof createExplorationLlmActivities>;
