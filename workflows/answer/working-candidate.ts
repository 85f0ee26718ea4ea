import type { Diagnosis } from '../../core/question/diagnosis';

/** A candidate as the stages work on it; `answerQuestion` reports it as a CandidateReport. */
export interface WorkingCandidate {
  path: string;
  generatedSql: string;
  sql: string;
  corrections: string[];
  /** The last diagnosis of `sql` (null until correction or selection ran it). */
  diagnosis: Diagnosis | null;
}

/** A candidate whose current SQL was diagnosed (in correction). */
export type DiagnosedCandidate = WorkingCandidate & { diagnosis: Diagnosis };

/** How bad a diagnosis is: any error outweighs any number of warnings; lower is better. */
export function badness(d: Diagnosis): number {
  return d.findings.reduce((n, f) => n + (f.severity === 'error' ? 100 : 1), 0) + (d.execution.ok ? 0 : 1000);
}

/** The key of the candidate's result (results that compare equal share it), or null when it did not run. */
export function resultKeyOf(c: WorkingCandidate): string | null {
  return c.diagnosis?.execution.ok ? c.diagnosis.execution.resultKey : null;
}
