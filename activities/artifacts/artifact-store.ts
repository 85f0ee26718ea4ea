/**
 * Where decodex keeps everything too large or too valuable for a workflow payload: column
 * profiles, notes, rules, knowledge bases, materialized DAG results, the LLM cache. Values are
 * JSON; they are addressed by a `kind` (what sort of artifact) and a `key` inside that kind.
 * Callers put the database fingerprint and the configuration that produced an artifact into
 * its key, so a changed database or configuration never reads a stale artifact.
 *
 * Every method is async so a shared, networked store (MySQL) fits the same interface as the
 * embedded SQLite file. One `put` is atomic: a reader gets the whole old value or the whole new
 * one, never part of a value, whatever its size. The contract both stores pass is
 * test/artifacts/artifact-store.contract.ts.
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
  /**
   * Runs `work` while holding the lock `name`, which every worker sharing this store respects
   * (processes on one machine for the SQLite file, every host for MySQL), so a multi-step write
   * such as publishing a preparation never interleaves with another one. Waits at most
   * `waitMs` for the lock, then throws an ArtifactLockTimeout error. A holder that dies
   * releases it (MySQL: its connection closes; SQLite: its lease expires).
   */
  withLock<T>(name: string, waitMs: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The lock of `withLock` stayed taken for the whole wait: another worker is still inside it. */
export class ArtifactLockTimeout extends Error {
  constructor(lock: string, waitMs: number) {
    super(`artifact-store lock "${lock}" still held by another worker after ${waitMs} ms`);
    this.name = 'ArtifactLockTimeout';
  }
}

/** A value the store refuses to keep: not JSON, or too large for the store's server. */
export function serializeArtifact(kind: string, key: string, value: unknown): string {
  const json = JSON.stringify(value);
  // JSON.stringify(undefined) is undefined: storing it would read back as a parse error later.
  if (json === undefined) throw new Error(`artifact ${kind}/${key}: value is not JSON-serialisable (${typeof value})`);
  return json;
}
