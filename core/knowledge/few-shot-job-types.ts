/** A job that builds DexterSQL's few-shot index (§3.3.2) from training questions and their SQL. */
export interface BuildFewShotIndexInput {
  /**
   * Where the examples come from, in this order: a named training set
   * (activities/knowledge/few-shot-sources.ts) or the absolute path of a user's JSONL file
   * (`isExampleFile`).
   */
  sources: string[];
  datasetsRoot: string;
  /** Examples embedded and written per activity. */
  pageSize: number;
  /** Pages per workflow run before it continues as new. */
  pagesPerRun: number;
  /**
   * Each example of a file has its SQL run once, read-only, and is indexed only if it runs within
   * this many milliseconds. Absent in jobs started before it existed: FEW_SHOT_JOB_DEFAULTS's.
   */
  sqlTimeoutMs?: number;
}

export const FEW_SHOT_JOB_DEFAULTS = { pageSize: 1_000, pagesPerRun: 20, sqlTimeoutMs: 30_000 } as const;

/** A user's file of examples (question, sql, database per line), as opposed to a named training set. */
export const isExampleFile = (source: string): boolean => source.endsWith('.jsonl');

/** An example of a file that is not indexed because its SQL did not run. */
export interface FewShotRejection {
  source: string;
  /** The line of the file it is on (1-based). */
  line: number;
  question: string;
  /** The guard's refusal, the engine's error or the timeout. */
  reason: string;
}

/** How many examples of one file were indexed and how many rejected. */
export interface FewShotFileCount {
  indexed: number;
  rejected: number;
}

/** Rejections reported with their line and reason, per page and for the whole job; the rest are counted. */
export const REPORTED_REJECTIONS = 5;

/** What indexing one page did: examples read, and for the examples of files, what their SQL's run decided. */
export interface FewShotPageResult {
  examples: number;
  /** By file source (named sources are not run and not listed). */
  files: Record<string, FewShotFileCount>;
  /** The page's first rejections (at most REPORTED_REJECTIONS). */
  rejections: FewShotRejection[];
}

export interface BuildFewShotIndexResult {
  collection: string;
  /** Examples in the index. */
  examples: number;
  /** Examples of files whose SQL did not run, left out. */
  rejected: number;
  /** The first of them (at most REPORTED_REJECTIONS), with their line and reason. */
  rejections: FewShotRejection[];
  files: Record<string, FewShotFileCount>;
}
