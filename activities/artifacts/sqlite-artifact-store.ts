import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ArtifactLockTimeout, serializeArtifact, type ArtifactStore } from './artifact-store';

/** How long a `withLock` lease lasts without renewal: a holder that died frees it after this. */
const LOCK_LEASE_MS = 30_000;
/** How often a waiting `withLock` tries again. */
const LOCK_POLL_MS = 25;

/**
 * The embedded artifact store: one SQLite file, created (with its directory) on first use.
 * WAL mode lets several worker processes on one machine read while one writes; the busy
 * timeout makes a concurrent writer wait instead of failing.
 */
export function openSqliteArtifactStore(filePath: string): ArtifactStore {
  if (filePath !== ':memory:') mkdirSync(dirname(filePath), { recursive: true });
  const db = new Database(filePath);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // SQLite's own 2 MB page cache, not the 16 MB better-sqlite3 builds in: artifacts are written
  // once and read back a few times, and the OS caches the file anyway.
  db.pragma('cache_size = -2048');
  db.exec(`CREATE TABLE IF NOT EXISTS artifacts (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, key)
  ) WITHOUT ROWID`);
  // Leases, not SQLite transactions: the work under a lock is async and may take seconds.
  db.exec(`CREATE TABLE IF NOT EXISTS artifact_locks (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID`);

  const getStmt = db.prepare<[string, string], { value: string }>('SELECT value FROM artifacts WHERE kind = ? AND key = ?');
  const putStmt = db.prepare<[string, string, string, string]>(
    `INSERT INTO artifacts (kind, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const deleteStmt = db.prepare<[string, string]>('DELETE FROM artifacts WHERE kind = ? AND key = ?');
  // A range on the primary key, so a listing reads only the keys it returns: with substr() alone
  // it read every artifact of the kind, values included (the table is WITHOUT ROWID), and each
  // database's publish got slower with every database prepared before it. substr() instead of
  // LIKE: keys may contain % and _, which LIKE would treat as wildcards. The upper bound is the
  // prefix followed by U+10FFFF, the last code point (a noncharacter no key contains).
  const listStmt = db.prepare<{ kind: string; prefix: string; upper: string }, { key: string }>(
    'SELECT key FROM artifacts WHERE kind = :kind AND key >= :prefix AND key < :upper AND substr(key, 1, length(:prefix)) = :prefix ORDER BY key',
  );
  const takeLockStmt = db.prepare<[string, string, number, number]>(
    `INSERT INTO artifact_locks (name, owner, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE artifact_locks.expires_at < ?`,
  );
  const renewLockStmt = db.prepare<[number, string, string]>('UPDATE artifact_locks SET expires_at = ? WHERE name = ? AND owner = ?');
  const releaseLockStmt = db.prepare<[string, string]>('DELETE FROM artifact_locks WHERE name = ? AND owner = ?');

  return {
    async get<T>(kind: string, key: string): Promise<T | undefined> {
      const row = getStmt.get(kind, key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async put(kind, key, value) {
      putStmt.run(kind, key, serializeArtifact(kind, key, value), new Date().toISOString());
    },
    async has(kind, key) {
      return getStmt.get(kind, key) !== undefined;
    },
    async delete(kind, key) {
      return deleteStmt.run(kind, key).changes > 0;
    },
    async list(kind, prefix = '') {
      return listStmt.all({ kind, prefix, upper: `${prefix}\u{10FFFF}` }).map((r) => r.key);
    },
    async withLock(name, waitMs, work) {
      const owner = randomUUID();
      const deadline = Date.now() + waitMs;
      while (takeLockStmt.run(name, owner, Date.now() + LOCK_LEASE_MS, Date.now()).changes === 0) {
        if (Date.now() >= deadline) throw new ArtifactLockTimeout(name, waitMs);
        await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      }
      const renew = setInterval(() => renewLockStmt.run(Date.now() + LOCK_LEASE_MS, name, owner), LOCK_LEASE_MS / 3);
      try {
        return await work();
      } finally {
        clearInterval(renew);
        if (db.open) releaseLockStmt.run(name, owner);
      }
    },
    async close() {
      db.close();
    },
  };
}
