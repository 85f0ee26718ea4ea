/**
 * Turns texts into fixed-length vectors for the profile and value indices (DexterSQL §3.1.2).
 *
 * `name` identifies the vector space: two embedders with the same name and dimension must give
 * comparable vectors, so an index records it and refuses to mix spaces. Change the name whenever
 * the algorithm or model changes.
 */
export interface Embedder {
  readonly name: string;
  readonly dimension: number;
  /** One vector per text, in input order, each of length `dimension`. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Loads what the first `embed` would (a model), so a worker pays for it when it starts rather
   * than in the middle of its first job. Absent: nothing to load.
   */
  load?(): Promise<void>;
}
