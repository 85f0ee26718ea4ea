/**
 * Where the profile and value indices live (DexterSQL §3.1.2). Two implementations share this
 * contract (test/vectors/vector-store.contract.ts): an embedded one, persisted in a local
 * directory, and Qdrant for shared deployments.
 *
 * Similarity is cosine. Vectors are compared by direction only, so a zero vector (whose
 * direction is undefined) is rejected, in points and in queries alike.
 */
export type PayloadValue = string | number | boolean;
export type Payload = Record<string, PayloadValue>;

export interface VectorPoint {
  id: string;
  vector: Float32Array | number[];
  payload: Payload;
}

export interface SearchOptions {
  /** How many nearest points to return, at most. */
  k: number;
  /** Only points whose payload has every one of these key/value pairs (strict equality). */
  filter?: Payload;
}

export interface SearchHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
  payload: Payload;
}

export interface VectorStore {
  /** Creates the collection if missing; throws VectorStoreError if it exists with another dimension. */
  ensureCollection(name: string, dimension: number): Promise<void>;
  /** Inserts points; a point whose id already exists replaces it (vector and payload). */
  upsert(collection: string, points: VectorPoint[]): Promise<void>;
  /** Best first; ties in score are in no promised order. */
  search(collection: string, vector: Float32Array | number[], options: SearchOptions): Promise<SearchHit[]>;
  count(collection: string): Promise<number>;
  /** Every point's id and payload (no vectors), ordered by id: what a collection holds, to export or inspect it. */
  payloads(collection: string): Promise<Omit<SearchHit, 'score'>[]>;
  /** Removes the collection and its points; a missing collection is not an error. */
  deleteCollection(name: string): Promise<void>;
  listCollections(): Promise<string[]>;
  close(): Promise<void>;
}

/** A misuse the caller can fix (wrong dimension, missing collection, bad payload) or a backend failure. */
export class VectorStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VectorStoreError';
  }
}

/**
 * The backend did not answer (a Qdrant server down, restarting or overloaded). Unlike a misuse,
 * a retry can fix it: Temporal retries the activity (its error type is this class's name), so
 * a preparation continues where it stopped once the server is back.
 */
export class VectorStoreUnavailableError extends VectorStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VectorStoreUnavailableError';
  }
}
