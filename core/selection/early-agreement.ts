/**
 * Stopping generation early when the first paths agree (`generation.stopOnAgreement`), without
 * changing the answer. Selection (§3.4.2) clusters the candidates by result: the largest cluster
 * wins outright when its share reaches the confidence threshold (or when selection is off and
 * the first candidate runs), and its first member is the answer. If the first k paths' candidates
 * all run to one result, with k more than half of the n paths and k/n at least the threshold, then
 * whatever the other paths write, that cluster stays the largest (the others are fewer than k),
 * its share stays at or above the threshold, and its first member is still the first path's SQL.
 * So the other paths need not be asked.
 */

/** The number of first paths whose agreement settles the answer, or null when only all n would. */
export function agreementQuorum(paths: number, confidenceThreshold: number): number | null {
  // The epsilon keeps 0.6 × 5 = 3.0000000000000004 from needing a fourth path.
  const quorum = Math.max(Math.floor(paths / 2) + 1, Math.ceil(confidenceThreshold * paths - 1e-9));
  return quorum < paths ? quorum : null;
}

/** Whether the quorum's candidates (their result keys; null: did not run) all ran to one result. */
export function quorumAgrees(resultKeys: (string | null)[], quorum: number): boolean {
  return resultKeys.length === quorum && resultKeys[0] !== null && resultKeys.every((k) => k === resultKeys[0]);
}
