import type { QuestionLimitsInput } from '../question-limits';
import type { TrainingSample } from '../datasets/training-sample';

/**
 * The job that builds DecoSearch's decomposition knowledge base (§3.5): training questions are
 * answered on the complex route (`pipeline.decomposition.always`), each answer is compared with
 * the gold SQL under Spider's execution semantics, and the sub-question DAG of every correct one
 * (`result.dag.final`) is stored as an example. Resumable like rule mining: the sample is frozen
 * under the job id, a question's stored record marks it done, and the budget covers the whole job.
 */
export interface BuildDecompositionKbInput {
  jobId: string;
  /** `spider-train` or a .jsonl file of training questions (their databases must be executable). */
  dataset: string;
  datasetsRoot: string;
  sample: TrainingSample;
  /** The question runs' preset, ablations and limits; the complex route is forced on top. */
  answer: { preset?: string; ablations?: string[]; limits?: QuestionLimitsInput };
  budget: { maxTokens: number; maxLlmCalls: number };
  concurrency: number;
  questionsPerRun: number;
  sqlTimeoutMs: number;
}

export interface DecompositionKbProgress {
  phase: 'sampling' | 'building' | 'done' | 'stopped';
  total: number;
  done: number;
  inFlight: number;
  /** Examples stored (correct answers with a DAG), answers that were wrong, answers without a DAG. */
  stored: number;
  wrong: number;
  withoutDag: number;
  /** Correct answers whose DAG is no example (core/knowledge/decomposition-quality.ts): not stored. */
  unusable: number;
  failedQuestions: number;
  llmCalls: number;
  tokens: number;
  stoppedBy?: string;
  runs: number;
}

/** What building one question left in the store (its presence means the question is done). */
export interface DecompositionRecord {
  index: number;
  dbId: string;
  question: string;
  /** The evaluation verdict of the answer's SQL against the gold (or why there was none). */
  verdict: string;
  stored: boolean;
  hasDag: boolean;
  /** Why a correct answer's DAG was not stored, when it was not (core/knowledge/decomposition-quality.ts). */
  unusable?: string;
  tokens: number;
  llmCalls: number;
}

export const DECOMPOSITION_KB_DEFAULTS: Omit<BuildDecompositionKbInput, 'jobId' | 'dataset' | 'datasetsRoot'> = {
  sample: { size: 500, seed: 1 },
  answer: { preset: 'decosearch' },
  budget: { maxTokens: 20_000_000, maxLlmCalls: 20_000 },
  concurrency: 4,
  questionsPerRun: 100,
  sqlTimeoutMs: 30_000,
};
