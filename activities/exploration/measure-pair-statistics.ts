import { findJoinPath, orientFromKeySide, type ForeignKeyEdge } from '../../core/exploration/join-paths';
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
  /** Pairs of one batch (core/preparation/work-batches), measured one after another. */
  pairs: CandidatePair[];
  config: ExplorationConfig;
  queryTimeoutMs: number;
}

/**
 * DexterSQL §3.1.3 Step 3 for a batch of confirmed pairs: value overlap (exact, and
 * case-insensitive for text), and — when a PK/FK path of at most `maxJoinHops` joins their
 * tables — coverage, fan-out and agreement from the key side. A measurement that times out is
 * recorded as a problem in the evidence (the note then says less), not retried forever. Each
 * pair's evidence is stored as soon as it is measured, so a retry of the batch skips it.
 */
export async function measurePairStatistics(deps: PreparationDeps, input: MeasurePairStatisticsInput): Promise<PairEvidence[]> {
  const { stored, columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const foreignKeys = stored.schema.tables.flatMap((t) => t.foreignKeys);
  const db = await openDatabaseOrFail(deps.databases, input.database);
  const stats = new PairStatistics(db, input.queryTimeoutMs);
  const all: PairEvidence[] = [];
  for (const pair of input.pairs) {
    const key = artifactKeys.pairEvidence(input.databaseId, input.versions, pair.id);
    let evidence = await deps.store.get<PairEvidence>(ARTIFACT_KINDS.pairEvidence, key);
    if (!evidence) {
      evidence = await measurePair(stats, pair, profileOf(columns, pair.a).textual && profileOf(columns, pair.b).textual, foreignKeys, input.config);
      await deps.store.put(ARTIFACT_KINDS.pairEvidence, key, evidence);
    }
    all.push(evidence);
  }
  return all;
}

async function measurePair(
  stats: PairStatistics,
  pair: CandidatePair,
  textual: boolean,
  foreignKeys: ForeignKeyEdge[],
  config: ExplorationConfig,
): Promise<PairEvidence> {
  const { a, b } = pair;
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
  const path = findJoinPath(foreignKeys, a.table, b.table, config.maxJoinHops);
  let join = null;
  if (path) {
    const oriented = orientFromKeySide(path);
    const [from, to] = oriented.reversed ? [b, a] : [a, b];
    join = await attempt('join statistics', () => stats.join(oriented.path, from, to, textual));
  }
  return { pairId: pair.id, a, b, overlap, overlapCaseInsensitive, join, problems };
}
