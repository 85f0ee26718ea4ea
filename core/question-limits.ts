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

/** The limits a caller gives: any of them, the rest from DEFAULT_LIMITS (resolveLimits checks each name). */
export type QuestionLimitsInput = Partial<Omit<QuestionLimits, 'budget' | 'llmRetry'>> & {
  budget?: Partial<QuestionBudget>;
  llmRetry?: Partial<QuestionLimits['llmRetry']>;
};

export function resolveLimits(partial: QuestionLimitsInput | undefined): QuestionLimits {
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
