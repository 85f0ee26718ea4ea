import type { Finding } from '../correction/finding';
import type { SqlRow } from '../sql-value';
import type { BoundedQueryResult } from './sql-execution';

/** A candidate's rows as the final answer returns them, with the SQL they are the result of. */
export interface AnswerRows {
  sql: string;
  result: BoundedQueryResult;
}

export type CandidateExecution =
  | { ok: true; rowCount: number; truncated: boolean; columns: string[]; resultKey: string; preview: SqlRow[]; answer?: AnswerRows }
  | { ok: false; kind: string; error: string };

/** What diagnosing one candidate found (DexterSQL §3.4.1 Step 1): the checks' findings and how it ran. */
export interface Diagnosis {
  findings: Finding[];
  execution: CandidateExecution;
}
