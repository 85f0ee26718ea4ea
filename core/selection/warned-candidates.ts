import { isQuestionCheck } from '../correction/question-checks';
import type { Finding } from '../correction/finding';

/** What setting warned candidates aside reads of a corrected candidate. */
export interface VotingCandidate {
  /** The key of its result (equal results share it), or null when its SQL did not run. */
  resultKey: string | null;
  /** Its last diagnosis's findings. */
  findings: readonly Pick<Finding, 'check'>[];
}

/** Whether a candidate's findings still hold a question check's warning after correction. */
export function stillWarned(findings: VotingCandidate['findings']): boolean {
  return findings.some((f) => isQuestionCheck(f.check));
}

/**
 * The candidates that do not vote in selection (`selection.setAsideWarned`): those whose SQL runs
 * but still carries a question check's warning after the reviser had its rounds, while another
 * candidate runs without one, and whose result no such clean candidate shares. The question checks
 * fire on 0.01–0.45% of Spider train's gold queries (`npm run bench:question-checks`), so a warning
 * that outlives revision marks a query the reviser could not fix, and two paths that made the same
 * mistake should not outvote the one that did not. A clean candidate with the same result refutes
 * the warning (the join it doubts changed no row), so that vote stands. With no candidate running
 * clean, every candidate votes, as in DexterSQL §3.4.2. Returns their indices.
 *
 * Stopping generation early (early-agreement.ts) stays answer-neutral when the first paths'
 * agreement counts only if one of them is clean: then none of them is set aside, whatever the
 * other paths write, and the argument there holds among the voters.
 */
export function warnedToSetAside(candidates: readonly VotingCandidate[]): number[] {
  const cleanResults = new Set(candidates.filter((c) => c.resultKey !== null && !stillWarned(c.findings)).map((c) => c.resultKey));
  return candidates.flatMap((c, i) => (c.resultKey !== null && stillWarned(c.findings) && cleanResults.size && !cleanResults.has(c.resultKey) ? [i] : []));
}
