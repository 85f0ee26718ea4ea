/**
 * DexterSQL §3.4.2: candidates that produce identical results form a cluster; a cluster's
 * execution confidence is its share of all corrected candidates (failed ones count in the
 * denominator but join no cluster). Results compare as the evaluators compare rows
 * (core/evaluation/row-key.ts), so "identical" means what EX means.
 */
export interface ClusterInput {
  /** Index of the candidate in the run's candidate list. */
  index: number;
  /** The result's key, or null when the candidate did not execute. */
  resultKey: string | null;
}

export interface CandidateCluster {
  resultKey: string;
  /** Candidate indices, in candidate order; the first is the representative. */
  members: number[];
  confidence: number;
}

/** Clusters by size, largest first; ties keep the order of their first member (earlier paths first). */
export function clusterCandidates(candidates: ClusterInput[]): CandidateCluster[] {
  const byKey = new Map<string, number[]>();
  for (const c of candidates) {
    if (c.resultKey === null) continue;
    const members = byKey.get(c.resultKey) ?? [];
    members.push(c.index);
    byKey.set(c.resultKey, members);
  }
  const total = candidates.length;
  return [...byKey.entries()]
    .map(([resultKey, members]) => ({ resultKey, members, confidence: total ? members.length / total : 0 }))
    .sort((a, b) => b.members.length - a.members.length || a.members[0] - b.members[0]);
}

export interface TournamentOutcome {
  /** Index into the representatives list. */
  winner: number;
  /** Score per representative: pairwise wins (as a share of its games) plus its confidence. */
  scores: number[];
}

/**
 * The tournament's verdict (§3.4.2): each representative's share of pairwise wins plus its
 * execution confidence, so a candidate many SQLs agree on keeps its weight unless the judge
 * keeps preferring another; ties go to the larger cluster (the earlier representative).
 */
export function tournamentWinner(confidences: number[], games: { a: number; b: number; winner: number }[]): TournamentOutcome {
  const wins = confidences.map(() => 0);
  const played = confidences.map(() => 0);
  for (const g of games) {
    played[g.a]++;
    played[g.b]++;
    wins[g.winner]++;
  }
  const scores = confidences.map((c, i) => (played[i] ? wins[i] / played[i] : 0) + c);
  let winner = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[winner]) winner = i;
  return { winner, scores };
}
