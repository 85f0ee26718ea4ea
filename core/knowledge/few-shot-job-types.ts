/** A job that builds DexterSQL's few-shot index (§3.3.2) from training questions and their SQL. */
export interface BuildFewShotIndexInput {
  /** Where the examples come from (activities/knowledge/few-shot-sources.ts), in this order. */
  sources: string[];
  datasetsRoot: string;
  /** Examples embedded and written per activity. */
  pageSize: number;
  /** Pages per workflow run before it continues as new. */
  pagesPerRun: number;
}
