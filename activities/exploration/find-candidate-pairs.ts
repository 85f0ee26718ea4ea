import { performance } from 'node:perf_hooks';
import { findCandidatePairs as selectCandidates } from '../../core/exploration/candidate-pairs';
import type { CandidatePair } from '../../core/exploration/pair-types';
import type { ExplorationConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { renderColumnSignature } from '../../core/profiling/profile-text';
import { loadPreparedProfiles } from '../prepared/load-prepared';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { normaliseInPlace } from '../embeddings/unit-vector';

export interface FindCandidatePairsInput {
  databaseId: string;
  versions: PreparationVersions;
  config: ExplorationConfig;
}

export interface FindCandidatePairsOutput {
  candidates: CandidatePair[];
  compared: number;
  /** Qualifying pairs dropped by the `maxCandidatePairs` bound. */
  cut: number;
  elapsedMs: number;
}

/**
 * DexterSQL §3.1.3 Step 1 over the stored profiles: embeds each column's signature (what it
 * holds, not where) and applies the deterministic name and similarity signals. The candidate
 * list is stored and returned (it is small: names and two scores per pair, bounded).
 */
export async function findCandidatePairs(deps: PreparationDeps, input: FindCandidatePairsInput): Promise<FindCandidatePairsOutput> {
  const started = performance.now();
  const { columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const signatures = await deps.embedders.values.embed(columns.map(renderColumnSignature));
  const found = selectCandidates(
    columns.map((profile, i) => ({ profile, signature: normaliseInPlace(Float32Array.from(signatures[i])) })),
    input.config,
  );
  await deps.store.put(ARTIFACT_KINDS.candidatePairs, artifactKeys.candidatePairs(input.databaseId, input.versions), found);
  return { ...found, elapsedMs: Math.round(performance.now() - started) };
}
