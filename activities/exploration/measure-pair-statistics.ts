import { findJoinPath, orientFromKeySide, type ForeignKeyEdge, type JoinStep } from '../../core/exploration/join-paths';
import type { ColumnRef } from '../../core/preparation/column-ref';
import type { CandidatePair, PairEvidence } from '../../core/exploration/pair-types';
import type { ExplorationConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { QueryTimeout } from '../database/target-database';
import { loadPreparedProfiles, profileOf } from '../prepared/load-prepared';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { type PreparationDeps } from '../prepared/preparation-deps';
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
 * tables — coverage, fan-out and agreement from the key side, one pass over each join for all
 * the pairs it joins. A measurement that times out is recorded as a problem in the evidence (the
 * note then says less), not retried forever. The evidence of the pairs over one join is stored
 * as soon as that join is measured, so a retry of the batch skips them.
 */
export async function measurePairStatistics(deps: PreparationDeps, input: MeasurePairStatisticsInput): Promise<PairEvidence[]> {
  const { stored, columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const foreignKeys = stored.schema.tables.flatMap((t) => t.foreignKeys);
  const db = await deps.databases.openOrFail(input.database);
  const stats = new PairStatistics(db, input.queryTimeoutMs);
  const keyOf = (pairId: string) => artifactKeys.pairEvidence(input.databaseId, input.versions, pairId);
  const found = new Map<string, PairEvidence>();
  const todo: PlannedPair[] = [];
  for (const pair of input.pairs) {
    const evidence = await deps.store.get<PairEvidence>(ARTIFACT_KINDS.pairEvidence, keyOf(pair.id));
    if (evidence) found.set(pair.id, evidence);
    else todo.push(planPair(pair, profileOf(columns, pair.a).textual && profileOf(columns, pair.b).textual, foreignKeys, input.config));
  }
  for (const group of groupByJoin(todo)) {
    for (const evidence of await measureGroup(stats, group)) {
      await deps.store.put(ARTIFACT_KINDS.pairEvidence, keyOf(evidence.pairId), evidence);
      found.set(evidence.pairId, evidence);
    }
  }
  return input.pairs.map((pair) => found.get(pair.id)!);
}

/** A pair to measure, with the join that links its tables (if any) oriented from the key side. */
interface PlannedPair {
  pair: CandidatePair;
  textual: boolean;
  join: { path: JoinStep[]; from: ColumnRef; to: ColumnRef } | null;
}

function planPair(pair: CandidatePair, textual: boolean, foreignKeys: ForeignKeyEdge[], config: ExplorationConfig): PlannedPair {
  const { a, b } = pair;
  const path = findJoinPath(foreignKeys, a.table, b.table, config.maxJoinHops);
  if (!path) return { pair, textual, join: null };
  const oriented = orientFromKeySide(path);
  const [from, to] = oriented.reversed ? [b, a] : [a, b];
  return { pair, textual, join: { path: oriented.path, from, to } };
}

/** Pairs over the same join together (in their first pair's order); a pair with no join alone. */
function groupByJoin(planned: PlannedPair[]): PlannedPair[][] {
  const groups = new Map<string, PlannedPair[]>();
  for (const p of planned) {
    const key = p.join ? JSON.stringify(p.join.path) : `no join: ${p.pair.id}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()];
}

async function measureGroup(stats: PairStatistics, group: PlannedPair[]): Promise<PairEvidence[]> {
  const problems = new Map(group.map((p) => [p.pair.id, [] as string[]]));
  // A timeout becomes a problem of the pairs it was measuring; anything else fails the activity.
  const attempt = async <T>(pairs: PlannedPair[], what: string, measure: () => Promise<T>): Promise<T | null> => {
    try {
      return await measure();
    } catch (err) {
      if (!(err instanceof QueryTimeout)) throw err;
      for (const p of pairs) problems.get(p.pair.id)!.push(`${what}: ${err.message}`);
      return null;
    }
  };
  const overlaps: Pick<PairEvidence, 'overlap' | 'overlapCaseInsensitive'>[] = [];
  for (const p of group) {
    const { a, b } = p.pair;
    const overlap = (await attempt([p], 'value overlap', () => stats.overlap(a, b, false, p.textual))) ?? NO_OVERLAP;
    const overlapCaseInsensitive = p.textual ? await attempt([p], 'case-insensitive value overlap', () => stats.overlap(a, b, true, true)) : null;
    overlaps.push({ overlap, overlapCaseInsensitive });
  }
  const path = group[0].join?.path;
  const joins = path
    ? await attempt(group, 'join statistics', () =>
        stats.join(
          path,
          group.map((p) => ({ from: p.join!.from, to: p.join!.to, textual: p.textual })),
        ),
      )
    : null;
  return group.map((p, i) => ({
    pairId: p.pair.id,
    a: p.pair.a,
    b: p.pair.b,
    ...overlaps[i],
    join: joins?.[i] ?? null,
    problems: problems.get(p.pair.id)!,
  }));
}

const NO_OVERLAP = { distinctA: 0, distinctB: 0, intersection: 0, union: 0, jaccard: 0 };
