import type { ColumnRef } from '../preparation/column-ref';
import type { LlmCallUsage } from '../usage';
import type { JoinStep } from './join-paths';

/** Why Step 1 proposed a pair. */
export type CandidateReason = 'same_name' | 'name_tokens' | 'profile_similarity';

/** A column pair that may confuse SQL generation (§3.1.3 Step 1 output). */
export interface CandidatePair {
  /** `a.x~b.y`, sides in sorted order (see pairId). */
  id: string;
  a: ColumnRef;
  b: ColumnRef;
  reasons: CandidateReason[];
  nameOverlap: number;
  profileCosine: number;
}

/** The three prompts of Step 2, with increasing information. */
export const TRIAGE_LEVELS = ['profiles', 'keys', 'schema'] as const;
export type TriageLevel = (typeof TRIAGE_LEVELS)[number];

export interface TriageVerdict {
  level: TriageLevel;
  ambiguous: boolean;
  reason: string;
}

/** Step 2's decision on one pair: three binary verdicts and their majority. */
export interface TriageOutcome {
  pairId: string;
  verdicts: TriageVerdict[];
  ambiguous: boolean;
  usage: LlmCallUsage[];
}

/** Jaccard overlap of two columns' distinct non-NULL value sets. */
export interface ValueOverlap {
  distinctA: number;
  distinctB: number;
  intersection: number;
  union: number;
  jaccard: number;
}

/**
 * Coverage, fan-out and agreement over a PK/FK join path, exactly as §3.1.3 defines them, from
 * the side `from` (Ti, the key side when there is one):
 *   coverage  = |π_X(Ti ⋈ … ⋈ Tj)| / |π_X(Ti)|
 *   fan-out   = |Ti ⋈ … ⋈ Tj| / |π_X(Ti ⋈ … ⋈ Tj)|
 *   agreement = |σ_{Ai = Aj}(Ti ⋈ … ⋈ Tj)| / |Ti ⋈ … ⋈ Tj|
 * X is Ti's join column(s) of the first join. Ratios with a zero denominator are null.
 */
export interface JoinStatistics {
  from: ColumnRef;
  to: ColumnRef;
  path: JoinStep[];
  /** Human-readable path, e.g. `Patient.ID = Examination.ID`. */
  pathText: string;
  keysInTable: number;
  keysJoined: number;
  joinedRows: number;
  agreeingRows: number;
  coverage: number | null;
  fanout: number | null;
  agreement: number | null;
  /** Agreement ignoring case, for text columns (null for others). */
  agreementCaseInsensitive: number | null;
}

/** Step 3's evidence on one confirmed pair. */
export interface PairEvidence {
  pairId: string;
  a: ColumnRef;
  b: ColumnRef;
  overlap: ValueOverlap;
  /** Same, after lower-casing text values; null unless both columns hold text. */
  overlapCaseInsensitive: ValueOverlap | null;
  /** Null when no PK/FK path within the hop limit joins the two tables. */
  join: JoinStatistics | null;
  /** Measurements that could not be made (a query timed out, ...), said rather than hidden. */
  problems: string[];
}

/** Step 4's output: one note per family of pairs that share columns. */
export interface DisambiguationNote {
  id: string;
  columns: ColumnRef[];
  pairIds: string[];
  note: string;
  usage: LlmCallUsage | null;
}
