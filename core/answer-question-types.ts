import type { DagReport } from './dag/dag-report';
import type { ByteTruncation } from './result-bytes';
import type { SqlRow } from './sql-value';
import type { RunUsage } from './usage';
import type { PipelineOverrides } from './pipeline/pipeline-config';
import type { FocusedTable } from './question/focused-table';
import type { RunError, TraceEvent } from './run-trace';

/** Limits of one question run. Each one is explicit; running out ends the run with its best answer. */
export interface QuestionBudget {
  /** Total prompt + completion tokens the run may spend. */
  maxTokens: number;
  /** Number of LLM calls the run may make. */
  maxLlmCalls: number;
  /** Wall-clock seconds for the whole run. */
  maxSeconds: number;
  /**
   * Repairs for the whole run: SQL revisions and topology refinements together. Not the paper's B
   * (`decomposition.maxRefinements`, refinements per question's DAG), which it also bounds.
   */
  maxRepairs: number;
}

export interface QuestionLimits {
  budget: QuestionBudget;
  /** Timeout of each SQL execution against the user's database. */
  sqlTimeoutMs: number;
  /** Rows returned to the caller (the run says when the result was cut). */
  maxRows: number;
  /**
   * A text or BLOB cell of the answer longer than this many bytes is cut to it (`byteLimit` in the
   * result says so): one huge value must not make the result too large for Temporal (~2 MB payloads).
   */
  maxCellBytes: number;
  /**
   * The answer's rows are kept while their JSON fits in this many bytes, the rest dropped (`truncated`
   * and `byteLimit` say so). 256 KiB stays under Temporal's 512 KB payload warning with the trace beside it.
   */
  maxResultBytes: number;
  /** Retry policy of LLM activities (429, 5xx, timeouts). */
  llmRetry: { maximumAttempts: number; initialIntervalMs: number; backoffCoefficient: number };
  /**
   * Start-to-close timeout of one LLM activity attempt: above the local model's 300 s ceiling
   * (DECODEX_LLM_TIMEOUT_MS), since a long prompt at one CPU thread takes minutes. Retries never
   * run past the question's time budget (the step runner gives each model step the time left).
   */
  llmAttemptTimeoutMs: number;
  /**
   * Heartbeat timeout of every activity (queries and model calls heartbeat while they wait):
   * when a worker dies mid-activity, the retry starts after this, not after the attempt's
   * start-to-close timeout (30 s + 30 s for SQL, 330 s for a model call).
   */
  heartbeatTimeoutMs: number;
}

export const DEFAULT_LIMITS: QuestionLimits = {
  budget: { maxTokens: 200_000, maxLlmCalls: 50, maxSeconds: 600, maxRepairs: 12 },
  sqlTimeoutMs: 30_000,
  maxRows: 200,
  maxCellBytes: 4096,
  maxResultBytes: 256 * 1024,
  llmRetry: { maximumAttempts: 5, initialIntervalMs: 1_000, backoffCoefficient: 2 },
  llmAttemptTimeoutMs: 330_000,
  heartbeatTimeoutMs: 10_000,
};

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
  limits?: Partial<Omit<QuestionLimits, 'budget'>> & { budget?: Partial<QuestionBudget> };
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

export function resolveLimits(partial: AnswerQuestionInput['limits']): QuestionLimits {
  rejectUnknownKeys(partial ?? {}, DEFAULT_LIMITS, 'limits');
  rejectUnknownKeys(partial?.budget ?? {}, DEFAULT_LIMITS.budget, 'limits.budget');
  rejectUnknownKeys(partial?.llmRetry ?? {}, DEFAULT_LIMITS.llmRetry, 'limits.llmRetry');
  return {
    ...DEFAULT_LIMITS,
    ...partial,
    budget: { ...DEFAULT_LIMITS.budget, ...(partial?.budget ?? {}) },
    llmRetry: { ...DEFAULT_LIMITS.llmRetry, ...(partial?.llmRetry ?? {}) },
  };
}

/** A limit that is not one would be ignored in silence: it is an error naming the valid ones (and the old name of a renamed one). */
function rejectUnknownKeys(given: object, valid: object, where: string): void {
  const renamed: Record<string, string> = { maxRefinements: 'maxRepairs' };
  for (const key of Object.keys(given)) {
    if (key in valid) continue;
    const hint = where === 'limits.budget' && renamed[key] ? ` (renamed ${renamed[key]})` : '';
    throw new Error(`unknown setting ${where}.${key}${hint}; valid: ${Object.keys(valid).join(', ')}`);
  }
}
