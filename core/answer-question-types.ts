import type { DagReport } from './dag/dag-report';
import type { ByteTruncation } from './result-bytes';
import type { SqlRow } from './sql-value';
import type { RunUsage } from './usage';
import type { PipelineOverrides } from './pipeline/pipeline-config';
import type { FocusedTable } from './question/focused-table';
import type { QuestionLimitsInput } from './question-limits';
import type { RunError, TraceEvent } from './run-trace';

export interface AnswerQuestionInput {
  question: string;
  /**
   * A database reference, never a credential (core/database-reference.ts): an absolute SQLite
   * path, a mysql:// URL without its password, or the name of a connection configured on the
   * workers. DecodexClient normalises what it is given and refuses a URL holding a password.
   */
  database: string;
  /** Extra knowledge for this question (BIRD's "evidence"). */
  evidence?: string;
  /** Named pipeline configuration (core/pipeline/pipeline-config.ts): hybrid (default), dextersql, decosearch. */
  preset?: string;
  /** Components switched off for ablations, e.g. ["judger", "notes"]; an unknown name is an error. */
  ablations?: string[];
  /** Settings changed on top of the preset, e.g. `{ selection: { confidenceThreshold: 0.8 } }`; each is checked. */
  pipeline?: PipelineOverrides;
  limits?: QuestionLimitsInput;
  /**
   * A question from a training set: retrieved examples (few-shot, decomposition) from this
   * database (as the knowledge sources name it, e.g. Spider's db_id) are withheld, since its
   * other questions include paraphrases with the same SQL. Set by benchmarks of training splits,
   * rule mining and knowledge building; a user's question leaves it out.
   */
  withholdExamplesOf?: string;
}

/**
 * How a run ended:
 * - answered: SQL was generated and executed;
 * - execution_error: the final SQL failed on the database (the error is returned);
 * - llm_error: the model could not be used (classified: auth, bad_request, malformed, ...);
 * - budget_exhausted: a budget ran out; the best answer so far is returned;
 * - database_error: the target database could not be opened or read, or has no tables;
 * - context_overflow: no candidate, because the prompts (question, schema) did not fit the model's
 *   context; the error names the sizes.
 */
export type Outcome = 'answered' | 'execution_error' | 'llm_error' | 'budget_exhausted' | 'database_error' | 'context_overflow';

/** Which way the question went: DecoSearch's direct path, or its complex route (sub-question DAG). */
export type Route = 'direct' | 'complex';

/** The judger's verdict (C.1) and what the run did with it. */
export interface Judgement {
  needsDecomposition: boolean;
  reasoning: string;
  /** Why the route differs from the verdict, when it does (e.g. the complex route is not available). */
  override?: string;
}

/** One SQL candidate, from its generation path through correction to selection. */
export interface CandidateReport {
  /** The generation path (direct, dependency-tree, few-shot, divide-and-conquer). */
  path: string;
  /** The SQL as generated. */
  generatedSql: string;
  /** The SQL after correction (the same when nothing needed fixing). */
  sql: string;
  /** Revision rounds and rule rewrites applied. */
  corrections: string[];
  /** The diagnostic findings of the final SQL (empty: nothing suspicious). */
  findings: string[];
  execution: { ok: true; rowCount: number; truncated: boolean } | { ok: false; error: string };
  /** Index of its result cluster (by size, 0 = largest), null when it did not execute. */
  cluster: number | null;
  /** Its cluster's share of all candidates. */
  confidence: number;
}

/** How the final SQL was chosen among the candidates (DexterSQL §3.4.2). */
export interface SelectionReport {
  method: 'single' | 'confidence' | 'tournament' | 'first-executable' | 'none-executable' | 'budget';
  /** Index into `candidates` of the chosen one. */
  chosen: number;
  confidence: number;
  /** Tournament scores per cluster representative, when a tournament ran. */
  scores?: { candidate: number; score: number }[];
}

export interface AnswerQuestionResult {
  outcome: Outcome;
  route: Route;
  /** The configuration that really ran: preset, ablations, and its label. */
  pipeline: { preset: string; ablations: string[]; overrides: PipelineOverrides; label: string };
  question: string;
  database: string;
  sql: string | null;
  columns: string[];
  rows: SqlRow[];
  truncated: boolean;
  /** Set when the byte limits (maxCellBytes, maxResultBytes) cut cells or dropped rows of the answer. */
  byteLimit?: ByteTruncation;
  error?: RunError;
  /** Which budget ended the run early, if one did (the answer is then the best so far). */
  stoppedBy?: RunError;
  judgement?: Judgement;
  /** The tables and columns the prompts showed; null when the whole schema was shown. */
  focusedSchema: FocusedTable[] | null;
  candidates: CandidateReport[];
  selection?: SelectionReport;
  /** The complex route's sub-question DAG with every revision, when the question took it. */
  dag?: DagReport;
  /** Repairs made (SQL revisions and topology refinements), counted against `limits.budget.maxRepairs`. */
  repairs: number;
  usage: RunUsage;
  trace: TraceEvent[];
}
