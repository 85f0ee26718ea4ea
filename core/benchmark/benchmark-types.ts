import type { QuestionLimitsInput } from '../question-limits';
import type { PipelineOverrides } from '../pipeline/pipeline-config';
import type { BenchmarkQuestion, EvaluatorName } from '../datasets/benchmark-question';
import type { LinkingScore } from '../evaluation/schema-linking';
import type { FocusedTable } from '../question/focused-table';
import type { Verdict } from '../evaluation/verdict';
import type { RunUsage } from '../usage';
import type { PriceTable } from './cost';
import type { SampleSpec } from './stratified-sample';

/** How each question is evaluated; the same settings for every question of a run. */
export interface EvaluationSettings {
  evaluator: EvaluatorName;
  /** Per query (Spider) or per pair (BIRD: both queries share it). Official: 30 s. */
  timeoutMs: number;
  /** VES timing repetitions of each correct pair (official 100); 0 skips VES and R-VES. */
  vesRepetitions: number;
  /** Spider only: keep DISTINCT (exec_eval.py --keep_distinct). */
  keepDistinct?: boolean;
}

export interface RunBenchmarkInput {
  /** Names the run everywhere: workflow id, child ids, stored records. Same id = resume. */
  benchmarkId: string;
  dataset: string;
  /** Folder with spider/ and bird/ as the worker sees it. */
  datasetsRoot: string;
  /**
   * Where a named dataset's databases are instead of its own folder: another folder in its
   * layout, or a server URL with `{db_id}` for copies on a server (`--databases`).
   */
  databaseDir?: string;
  limit?: number;
  /** A seeded sample stratified by database and difficulty, taken after `limit`. */
  sample?: SampleSpec;
  evaluation: EvaluationSettings;
  /** Score each dataset's gold SQL as the prediction (no LLM), through the same evaluation. */
  goldAsPrediction?: boolean;
  /**
   * Withhold each question's own database from example retrieval (AnswerQuestionInput
   * .withholdExamplesOf). Absent: on for a training split (a dataset named `*-train`), whose
   * questions' paraphrases are in the few-shot index built from it; off otherwise.
   */
  withholdSameDatabaseExamples?: boolean;
  /** Passed through to answerQuestion, never interpreted here. */
  preset?: string;
  ablations?: string[];
  /** Settings changed on top of the preset (`--set`), passed through like preset and ablations. */
  pipeline?: PipelineOverrides;
  questionLimits?: QuestionLimitsInput;
  /** Questions (child workflows or evaluations) in flight at once. */
  concurrency: number;
  /** Questions per workflow run before continue-as-new (keeps histories small). */
  questionsPerRun?: number;
  /** Where the worker writes report.json, summary.md and chart.svg. */
  reportDir: string;
  /** The line's name in charts and comparisons (default: preset + ablations). */
  label?: string;
  /** For the cost estimate: model of each role, and prices by model. */
  roleModels?: Record<string, string>;
  prices?: PriceTable;
}

/** What the workflow carries across continue-as-new. */
export interface RunBenchmarkState {
  prepared: PreparedBenchmark;
  /** The first question index not yet handed out. */
  nextIndex: number;
  done: number;
  correct: number;
  runs: number;
}

export interface PreparedBenchmark {
  total: number;
  executable: number;
  dataset: string;
  evaluator: EvaluatorName;
  missingDatabases: { dbId: string; path: string; questions: number }[];
  notes: Record<string, string | number>;
  /**
   * Questions that already had a record when this run started (an earlier run's, or one that
   * cannot run, recorded at once), so a resumed run's progress starts where the last one stopped.
   */
  finished?: { done: number; correct: number };
}

/** What the pipeline produced for one question, as the evaluator needs it. */
export interface PredictionForEvaluation {
  sql: string | null;
  /** answerQuestion's outcome, or `gold` in gold-as-prediction mode, or `workflow_failed`. */
  outcome: string;
  route: string;
  error?: string;
  usage: RunUsage;
  latencyMs: number | null;
  workflowId?: string;
  /** Every SQL candidate the run considered (for UB-EX), as generated and as corrected; the final SQL alone when absent. */
  candidates?: PredictedCandidate[];
  /** How the run chose its final SQL among them (`confidence`, `tournament`, ...), when it reported it. */
  selection?: string;
  /** The schema the run finally focused on (for linking recall); absent: not measured. */
  focusedSchema?: FocusedTable[];
}

/** One candidate of a run: the path that wrote it, its SQL as generated, and after correction. */
export interface PredictedCandidate {
  path: string;
  generatedSql: string;
  sql: string;
  /** What changed it between the two (the run's `corrections`), when anything did. */
  corrections?: string[];
}

/**
 * One candidate's verdicts: its final SQL's and, when correction changed it, its generated SQL's,
 * so a report can say which stage lost a question (no path right, correction, or selection).
 */
export interface CandidateVerdict {
  path: string;
  sql: string;
  verdict: Verdict;
  generatedVerdict?: Verdict;
  /** The kinds of correction that changed it (`revision`, `code fix`, `rules`), when any did. */
  changedBy?: string[];
}

/** One evaluated question: what the report's JSON lists, one per question. */
export interface BenchmarkRecord {
  index: number;
  id: string;
  dbId: string;
  difficulty?: string;
  question: string;
  evidence?: string;
  goldSql: string;
  predictedSql: string | null;
  outcome: string;
  route: string;
  verdict: Verdict;
  detail?: string;
  usage: RunUsage;
  latencyMs: number | null;
  workflowId?: string;
  /** UB-EX: whether any candidate was correct, and how many candidates were evaluated. */
  upperBoundCorrect: boolean;
  candidatesEvaluated: number;
  /** Every candidate's verdicts, in the run's order (absent in records stored before they were kept). */
  candidates?: CandidateVerdict[];
  /** How the run chose its final SQL (absent when it did not say). */
  selection?: string;
  /** VES time ratio (0 unless correct); absent when VES was not measured. */
  timeRatio?: number;
  linking?: LinkingScore | null;
  predictedMs?: number;
  goldMs?: number;
}

export interface EvaluateAnswerInput {
  benchmarkId: string;
  question: BenchmarkQuestion;
  prediction: PredictionForEvaluation;
  settings: EvaluationSettings;
}

/** What the workflow keeps of an evaluation: enough for progress, nothing bulky. */
export interface EvaluatedBrief {
  index: number;
  verdict: Verdict;
  tokens: number;
}

export interface BenchmarkProgress {
  total: number;
  done: number;
  correct: number;
  inFlight: number;
  runs: number;
}
