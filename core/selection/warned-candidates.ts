import { isQuestionCheck } from '../correction/question-checks';
import type { Finding } from '../correction/finding';

/** What setting warned candidates aside reads of a corrected candidate. */
export interface RanCandidate {
  /** Whether its SQL ran. */
  ran: boolean;
  /** Its last diagnosis's findings. */
  findings: readonly Pick<Finding, 'check'>[];
}

/** Whether a candidate's findings still hold a question check's warning after correction. */
export function stillWarned(findings: RanCandidate['findings']): boolean {
  return findings.some((f) => isQuestionCheck(f.check));
}

/**
 * The candidates that do not vote in selection (`selection.setAsideWarned`): those whose SQL runs
 * but still carries a question check's warning after the reviser had its rounds, provided some
 * other candidate runs without one. The question checks fire on 0.01–0.45% of Spider train's gold
 * queries (`npm run bench:question-checks`), so a warning that outlives revision marks a query the
 * reviser could not fix, and two paths that made the same mistake should not outvote the one that
 * did not. With no candidate running clean, every candidate votes, as in DexterSQL §3.4.2.
 * Returns their indices. Stopping generation early (early-agreement.ts) stays answer-neutral when
 * only clean candidates' agreement counts: the argument there then holds among the voters.
 */
export function warnedToSetAside(candidates: readonly RanCandidate[]): number[] {
  const warned = candidates.flatMap((c, i) => (c.ran && stillWarned(c.findings) ? [i] : []));
  const clean = candidates.some((c) => c.ran && !stillWarned(c.findings));
  return clean ? warned : [];
}
