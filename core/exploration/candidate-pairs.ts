import { columnKey, orderedPair, pairId, type ColumnRef } from '../preparation/column-ref';
import type { ExplorationConfig } from '../preparation/preparation-config';
import { nameTokenOverlap } from '../preparation/name-tokens';
import type { ColumnProfile } from '../profiling/column-profile';
import type { CandidatePair, CandidateReason } from './pair-types';

export interface CandidateColumn {
  profile: ColumnProfile;
  /** Unit-length embedding of the column's signature (see renderColumnSignature). */
  signature: Float32Array;
}

export interface CandidateSearch {
  candidates: CandidatePair[];
  /** Pairs compared (identifier and empty columns excluded). */
  compared: number;
  /** Pairs that qualified but were cut by `maxCandidatePairs`. */
  cut: number;
}

/**
 * DexterSQL §3.1.3 Step 1: cheap deterministic signals instead of investigating every pair.
 * A pair qualifies when the names match, when their normalised name tokens overlap enough,
 * or when their signatures' cosine is high; identifier columns and declared PK/FK pairs are
 * structurally obvious and dropped. The best `maxCandidatePairs` by score are kept, so the
 * triage cost is bounded whatever the schema's size.
 */
export function findCandidatePairs(columns: CandidateColumn[], config: ExplorationConfig): CandidateSearch {
  const eligible = columns.filter((c) => !c.profile.identifier && c.profile.nonNullCount > 0);
  const qualified: (CandidatePair & { score: number })[] = [];
  let compared = 0;
  for (let i = 0; i < eligible.length; i++) {
    for (let j = i + 1; j < eligible.length; j++) {
      compared++;
      const x = eligible[i].profile;
      const y = eligible[j].profile;
      if (declaredKeyPair(x, y)) continue;
      const reasons: CandidateReason[] = [];
      const nameOverlap = round(nameTokenOverlap(x.column, y.column));
      const profileCosine = round(dot(eligible[i].signature, eligible[j].signature));
      if (x.column.toLowerCase() === y.column.toLowerCase()) reasons.push('same_name');
      else if (nameOverlap >= config.nameOverlapThreshold) reasons.push('name_tokens');
      if (profileCosine >= config.profileSimilarityThreshold) reasons.push('profile_similarity');
      if (reasons.length === 0) continue;
      const [a, b] = orderedPair(refOf(x), refOf(y));
      const score = (reasons.includes('same_name') ? 1 : 0) + nameOverlap + profileCosine;
      qualified.push({ id: pairId(a, b), a, b, reasons, nameOverlap, profileCosine, score });
    }
  }
  qualified.sort((p, q) => q.score - p.score || p.id.localeCompare(q.id));
  const kept = qualified.slice(0, config.maxCandidatePairs).map(({ score: _score, ...pair }) => pair);
  return { candidates: kept, compared, cut: qualified.length - kept.length };
}

function refOf(p: ColumnProfile): ColumnRef {
  return { table: p.table, column: p.column };
}

/** One references the other, or both reference the same key: the schema already explains them. */
function declaredKeyPair(x: ColumnProfile, y: ColumnProfile): boolean {
  const key = (r: ColumnRef | null) => (r ? columnKey(r).toLowerCase() : null);
  const [rx, ry] = [key(x.references), key(y.references)];
  return rx === key(refOf(y)) || ry === key(refOf(x)) || (rx !== null && rx === ry);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
