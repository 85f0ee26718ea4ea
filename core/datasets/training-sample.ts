/** Which training questions a learning job (rule mining, the decomposition knowledge base) works on. */
export interface TrainingSample {
  /** Questions taken, stratified by difficulty (labels when present, else estimated from the gold SQL). */
  size: number;
  /** Seed of the sample: the same seed gives the same questions. */
  seed: number;
  /** Only these training databases (db ids); absent: all of them. */
  databases?: string[];
}
