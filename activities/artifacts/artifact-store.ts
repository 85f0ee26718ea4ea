/**
 * Where decodex keeps everything too large or too valuable for a workflow payload: column
 * profiles, notes, rules, knowledge bases, materialized DAG results, the LLM cache. Values are
 * JSON; they are addressed by a `kind` (what sort of artifact) and a `key` inside that kind.
 * Callers put the database fingerprint and the configuration that produced an artifact into
 * its key, so a changed database or configuration never reads a stale artifact.
 *
 * Every method is async so a shared, networked store (MySQL) fits the same interface as the
 * embedded SQLite file.
 */
export interface ArtifactStore {
  /** The stored value, or `undefined` when there is none. */
  get<T>(kind: string, key: string): Promise<T | undefined>;
  /** Stores (or replaces) a JSON-serialisable value. */
  put(kind: string, key: string, value: unknown): Promise<void>;
  has(kind: string, key: string): Promise<boolean>;
  /** True when something was deleted. */
  delete(kind: string, key: string): Promise<boolean>;
  /** Keys of one kind, sorted, optionally only those starting with `prefix`. */
  list(kind: string, prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}
