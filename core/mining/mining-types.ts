import type { QuestionLimitsInput } from '../question-limits';
import type { PriceTable } from '../benchmark/cost';
import type { BenchmarkQuestion } from '../datasets/benchmark-question';
import type { TrainingSample } from '../datasets/training-sample';
import type { CorrectionRule } from '../knowledge/knowledge-types';
import type { PipelineOverrides } from '../pipeline/pipeline-config';
import type { RunUsage } from '../usage';

/**
 * DexterSQL's rule creator (§3.1.4) as a long, resumable job: `mineRules` samples training
 * questions, mines each one through the real online pipeline (one child workflow per question,
 * its record stored when it finishes), then clusters the database-agnostic failures and writes
 * one rule per dominant group where the online correction reads them.
 */
export interface MineRulesInput {
  /** The job's id: the workflow id and the key of its stored sample and records. Rerunning it resumes. */
  jobId: string;
  /** `spider-train` (Spider's training questions and databases) or a .jsonl file of training questions. */
  dataset: string;
  /** Folder holding spider/ and spider-syn/ (DECODEX_DATASETS). */
  datasetsRoot: string;
  sample: TrainingSample;
  /** How each training question is answered (the real online pipeline; default: DexterSQL without rules). */
  answer: { preset?: string; ablations?: string[]; pipeline?: PipelineOverrides; limits?: QuestionLimitsInput };
  clustering: {
    /** Explanations per clustering call (and groups per merging call). */
    batchSize: number;
    /** A group with fewer explanations than this is not dominant and makes no rule. */
    minGroupSize: number;
    /** Explanations shown to the rule writer per group. */
    explanationsPerRule: number;
    /**
     * How failures are grouped: `llm` (the paper's hierarchical clustering by the model) or
     * `sql-differences` (plain code: each failure joins the group of the first way its query's
     * shape differs from the gold query's; failures of the same shape stay ungrouped).
     */
    method: ClusteringMethod;
  };
  /** The whole job's budget (every run of the chain, every resume): when it runs out the job stops with what it has. */
  budget: { maxTokens: number; maxLlmCalls: number; maxCostUsd?: number };
  /** Prices for maxCostUsd and the cost in the progress (core/benchmark/cost.ts). */
  prices?: PriceTable;
  /** Which model serves each role, to price its tokens. */
  roleModels?: Record<string, string>;
  /** Questions mined at once. */
  concurrency: number;
  /** Questions per workflow run before it continues as new (keeps histories small). */
  questionsPerRun: number;
  /** Timeout of each gold and candidate execution when comparing them. */
  sqlTimeoutMs: number;
}

export const CLUSTERING_METHODS = ['llm', 'sql-differences'] as const;
export type ClusteringMethod = (typeof CLUSTERING_METHODS)[number];

export type MiningPhase = 'sampling' | 'mining' | 'clustering' | 'synthesis' | 'done' | 'stopped';

/** What the `miningProgress` query, the Web UI details and the CLI's progress bar show. */
export interface MiningProgress {
  phase: MiningPhase;
  /** Questions in the sample. */
  total: number;
  /** Questions mined (over every run of the job). */
  done: number;
  inFlight: number;
  /** Question workflows that failed in this run (left unmined; running the job again retries them). */
  failedQuestions: number;
  /** Why the last of them failed. */
  lastFailure?: string;
  /** Failure explanations found (Step 1) and those kept as database-agnostic (Step 2). */
  failures: number;
  agnosticFailures: number;
  /** Error groups after clustering, dominant ones, and rules written. */
  groups: number;
  dominantGroups: number;
  rules: number;
  llmCalls: number;
  tokens: number;
  /** Null without prices. */
  costUsd: number | null;
  /** Which budget stopped the job, when one did. */
  stoppedBy?: string;
  /** Workflow runs of this job's current chain (continue-as-new). */
  runs: number;
  /** Whether the few-shot index holds the mined questions, and how they are kept out of their own prompts. */
  examples?: string;
}

/** One failure explanation; its id `q<index>.c<candidate>.e<n>` says where it came from. */
export interface FailureExplanation {
  id: string;
  /** The generation path of the failing candidate. */
  path: string;
  text: string;
  agnostic: boolean;
  reason: string;
  /** How the failing query's shape differs from the gold query's (core/mining/sql-differences.ts); absent in records mined before they were kept. */
  differences?: string[];
  /** The failing query and the gold query, shown to the rule writer beside the explanation (absent in older records). */
  pair?: { sql: string; gold: string };
}

/** What mining one question left in the store (its presence means the question is done). */
export interface MinedQuestionRecord {
  index: number;
  dbId: string;
  question: string;
  difficulty?: string;
  /** How the question run ended (answerQuestion's outcome, or workflow_failed). */
  outcome: string;
  /** Why the gold SQL could not be run on the training database (then nothing was compared). */
  goldError?: string;
  candidates: number;
  mismatches: number;
  explanations: FailureExplanation[];
  usage: RunUsage;
  workflowId: string;
}

/** One question's candidate that disagrees with the gold SQL. */
export interface CandidateMismatch {
  candidate: number;
  path: string;
  sql: string;
  verdict: string;
  detail?: string;
  goldRows: string;
  candidateRows: string;
  /** How its shape differs from the gold query's, in SQL_DIFFERENCES order (none: the same shape). */
  differences: string[];
}

export interface MineQuestionInput {
  jobId: string;
  question: BenchmarkQuestion;
  answer: MineRulesInput['answer'];
  sqlTimeoutMs: number;
  /** The question's second run, after a first that ran out of time (its workflows' ids end in `/again`). */
  again?: boolean;
  /** What the first run spent, counted in the second run's record. */
  earlierUsage?: RunUsage;
}

export interface MineQuestionBrief {
  index: number;
  failures: number;
  agnosticFailures: number;
  /** What the question spent, the first run's included when this is the second. */
  usage: RunUsage;
  /** A first run that ran out of time and stored nothing: the job runs the question once more. */
  outOfTime?: boolean;
}

/** A group of explanations describing one SQL formulation error. */
export interface ErrorGroup {
  label: string;
  /** Explanation ids, in question order. */
  members: string[];
  /** The SQL shape difference every member shows, when the group was made by it (`clustering.method: sql-differences`). */
  difference?: string;
}

/** What a run of the job finds in the store when it starts. */
export interface MiningJobStatus {
  total: number;
  done: number;
  failures: number;
  agnosticFailures: number;
  usage: RunUsage;
  byDifficulty: Record<string, number>;
  /** Whether the few-shot index holds the mined questions, and how they are kept out of their own prompts. */
  examples: string;
}

export interface MineRulesResult {
  status: 'completed' | 'budget_exhausted';
  progress: MiningProgress;
  /** The rules written (empty when the job stopped before synthesis). */
  rules: CorrectionRule[];
  /** The artifact-store version they were written as (`v0001`, ...). */
  rulesVersion?: string;
  /** Why the job stopped early, when it did. */
  stoppedBy?: string;
}

export const MINING_DEFAULTS: Omit<MineRulesInput, 'jobId' | 'dataset' | 'datasetsRoot'> = {
  sample: { size: 300, seed: 1 },
  // DexterSQL's pipeline mines the mistakes it makes before any rule exists.
  answer: { preset: 'dextersql', ablations: ['rules'] },
  clustering: { batchSize: 20, minGroupSize: 3, explanationsPerRule: 8, method: 'llm' },
  budget: { maxTokens: 20_000_000, maxLlmCalls: 20_000 },
  concurrency: 4,
  questionsPerRun: 100,
  sqlTimeoutMs: 30_000,
};

/** Checks a job's settings; every accepted setting does something, so a meaningless one is an error. */
export function validateMiningInput(input: MineRulesInput): void {
  const positive = (n: number, name: string) => {
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${n}`);
  };
  if (!input.jobId?.trim()) throw new Error('jobId must be a non-empty string');
  if (input.dataset !== 'spider-train' && !input.dataset.endsWith('.jsonl'))
    throw new Error(`dataset must be spider-train or a .jsonl file, got "${input.dataset}"`);
  positive(input.sample.size, 'sample.size');
  if (!Number.isInteger(input.sample.seed)) throw new Error(`sample.seed must be an integer, got ${input.sample.seed}`);
  positive(input.clustering.batchSize, 'clustering.batchSize');
  if (input.clustering.batchSize < 2) throw new Error('clustering.batchSize must be at least 2 (a batch of one groups nothing)');
  positive(input.clustering.minGroupSize, 'clustering.minGroupSize');
  positive(input.clustering.explanationsPerRule, 'clustering.explanationsPerRule');
  if (!CLUSTERING_METHODS.includes(input.clustering.method))
    throw new Error(`clustering.method must be one of ${CLUSTERING_METHODS.join(', ')}, got "${String(input.clustering.method)}"`);
  positive(input.budget.maxTokens, 'budget.maxTokens');
  positive(input.budget.maxLlmCalls, 'budget.maxLlmCalls');
  if (input.budget.maxCostUsd !== undefined) {
    if (!(input.budget.maxCostUsd > 0)) throw new Error(`budget.maxCostUsd must be positive, got ${input.budget.maxCostUsd}`);
    if (!input.prices) throw new Error('budget.maxCostUsd needs prices (per model, per million tokens) to count dollars');
  }
  if (input.sample.databases && !input.sample.databases.length) throw new Error('sample.databases, when given, must name at least one database');
  positive(input.concurrency, 'concurrency');
  positive(input.questionsPerRun, 'questionsPerRun');
  positive(input.sqlTimeoutMs, 'sqlTimeoutMs');
}
