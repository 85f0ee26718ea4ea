import type { SqlRow } from './sql-value';
import type { RunUsage } from './usage';

/** Limits of one question run. Each one is explicit; running out ends the run with its best answer. */
export interface QuestionBudget {
  /** Total prompt + completion tokens the run may spend. */
  maxTokens: number;
  /** Number of LLM calls the run may make. */
  maxLlmCalls: number;
  /** Wall-clock seconds for the whole run. */
  maxSeconds: number;
}

export interface QuestionLimits {
  budget: QuestionBudget;
  /** Timeout of each SQL execution against the user's database. */
  sqlTimeoutMs: number;
  /** Rows returned to the caller (the run says when the result was cut). */
  maxRows: number;
  /** Retry policy of LLM activities (429, 5xx, timeouts). */
  llmRetry: { maximumAttempts: number; initialIntervalMs: number; backoffCoefficient: number };
  /** Start-to-close timeout of one LLM activity attempt. */
  llmAttemptTimeoutMs: number;
}

export const DEFAULT_LIMITS: QuestionLimits = {
  budget: { maxTokens: 200_000, maxLlmCalls: 50, maxSeconds: 600 },
  sqlTimeoutMs: 30_000,
  maxRows: 200,
  llmRetry: { maximumAttempts: 5, initialIntervalMs: 1_000, backoffCoefficient: 2 },
  llmAttemptTimeoutMs: 180_000,
};

export interface AnswerQuestionInput {
  question: string;
  /** A SQLite file path or a mysql:// URL, as the worker can open it. */
  database: string;
  /** Extra knowledge for this question (BIRD's "evidence"). */
  evidence?: string;
  /** Named pipeline configuration; passed through by callers such as the benchmark harness. */
  preset?: string;
  /** Components switched off for ablations, e.g. ["judger", "refinement"]. */
  ablations?: string[];
  limits?: Partial<Omit<QuestionLimits, 'budget'>> & { budget?: Partial<QuestionBudget> };
}

/**
 * How a run ended:
 * - answered: SQL was generated and executed;
 * - execution_error: the final SQL failed on the database (the error is returned);
 * - llm_error: the model could not be used (classified: auth, bad_request, malformed, ...);
 * - budget_exhausted: a budget ran out; the best answer so far is returned;
 * - database_error: the target database could not be opened or read.
 */
export type Outcome = 'answered' | 'execution_error' | 'llm_error' | 'budget_exhausted' | 'database_error';

export interface RunError {
  kind: string;
  message: string;
}

export interface TraceEvent {
  step: string;
  summary: string;
  startedAt: string;
  elapsedMs: number;
  ok: boolean;
  detail?: Record<string, unknown>;
}

export interface AnswerQuestionResult {
  outcome: Outcome;
  route: string;
  question: string;
  database: string;
  sql: string | null;
  columns: string[];
  rows: SqlRow[];
  truncated: boolean;
  error?: RunError;
  usage: RunUsage;
  trace: TraceEvent[];
}

export function resolveLimits(partial: AnswerQuestionInput['limits']): QuestionLimits {
  return {
    ...DEFAULT_LIMITS,
    ...partial,
    budget: { ...DEFAULT_LIMITS.budget, ...(partial?.budget ?? {}) },
    llmRetry: { ...DEFAULT_LIMITS.llmRetry, ...(partial?.llmRetry ?? {}) },
  };
}
