import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ArtifactStore } from './artifact-store';

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
  db.exec(`CREATE TABLE IF NOT EXISTS artifacts (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, key)
  ) WITHOUT ROWID`);

  const getStmt = db.prepare<[string, string], { value: string }>('SELECT value FROM artifacts WHERE kind = ? AND key = ?');
  const putStmt = db.prepare<[string, string, string, string]>(
    `INSERT INTO artifacts (kind, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const deleteStmt = db.prepare<[string, string]>('DELETE FROM artifacts WHERE kind = ? AND key = ?');
  // substr() instead of LIKE: keys may contain % and _, which LIKE would treat as wildcards.
  const listStmt = db.prepare<[string, string, string], { key: string }>(
    'SELECT key FROM artifacts WHERE kind = ? AND substr(key, 1, length(?)) = ? ORDER BY key',
  );

  return {
    async get<T>(kind: string, key: string): Promise<T | undefined> {
      const row = getStmt.get(kind, key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async put(kind, key, value) {
      const json = JSON.stringify(value);
      // JSON.stringify(undefined) is undefined: storing it would read back as a parse error later.
      if (json === undefined) throw new Error(`artifact ${kind}/${key}: value is not JSON-serialisable (${typeof value})`);
      putStmt.run(kind, key, json, new Date().toISOString());
    },
    async has(kind, key) {
      return getStmt.get(kind, key) !== undefined;
    },
    async delete(kind, key) {
      return deleteStmt.run(kind, key).changes > 0;
    },
    async list(kind, prefix = '') {
      return listStmt.all(kind, prefix, prefix).map((r) => r.key);
    },
    async close() {
      db.close();
    },
  };
}
