import { findJoinPath, orientFromKeySide } from '../../core/exploration/join-paths';
import type { CandidatePair, PairEvidence } from '../../core/exploration/pair-types';
import type { ExplorationConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { QueryTimeout } from '../database/target-database';
import { loadPreparedProfiles, profileOf } from '../preparation/load-prepared';
import { ARTIFACT_KINDS, artifactKeys } from '../preparation/preparation-artifacts';
import { openDatabaseOrFail, type PreparationDeps } from '../preparation/preparation-deps';
import { PairStatistics } from './pair-statistics';

export interface MeasurePairStatisticsInput {
  database: string;
  databaseId: string;
  versions: PreparationVersions;
  pair: CandidatePair;
  config: ExplorationConfig;
  queryTimeoutMs: number;
}

/**
 * DexterSQL §3.1.3 Step 3 for one confirmed pair: value overlap (exact, and case-insensitive
 * for text), and — when a PK/FK path of at most `maxJoinHops` joins their tables — coverage,
 * fan-out and agreement from the key side. A measurement that times out is recorded as a
 * problem in the evidence (the note then says less), not retried forever.
 */
export async function measurePairStatistics(deps: PreparationDeps, input: MeasurePairStatisticsInput): Promise<PairEvidence> {
  const { stored, columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const db = await openDatabaseOrFail(deps.databases, input.database);
  const stats = new PairStatistics(db, input.queryTimeoutMs);
  const { a, b } = input.pair;
  const textual = profileOf(columns, a).textual && profileOf(columns, b).textual;
  const problems: string[] = [];
  const attempt = async <T>(what: string, measure: () => Promise<T>): Promise<T | null> => {
    try {
      return await measure();
    } catch (err) {
      if (!(err instanceof QueryTimeout)) throw err;
      problems.push(`${what}: ${err.message}`);
      return null;
    }
  };

  const overlap = (await attempt('value overlap', () => stats.overlap(a, b, false, textual))) ?? {
    distinctA: 0,
    distinctB: 0,
    intersection: 0,
    union: 0,
    jaccard: 0,
  };
  const overlapCaseInsensitive = textual ? await attempt('case-insensitive value overlap', () => stats.overlap(a, b, true, true)) : null;
  const foreignKeys = stored.schema.tables.flatMap((t) => t.foreignKeys);
  const path = findJoinPath(foreignKeys, a.table, b.table, input.config.maxJoinHops);
  let join = null;
  if (path) {
    const oriented = orientFromKeySide(path);
    const [from, to] = oriented.reversed ? [b, a] : [a, b];
    join = await attempt('join statistics', () => stats.join(oriented.path, from, to, textual));
  }
  const evidence: PairEvidence = { pairId: input.pair.id, a, b, overlap, overlapCaseInsensitive, join, problems };
  await deps.store.put(ARTIFACT_KINDS.pairEvidence, artifactKeys.pairEvidence(input.databaseId, input.versions, input.pair.id), evidence);
  return evidence;
}
