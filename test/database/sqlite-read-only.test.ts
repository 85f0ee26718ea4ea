import path from 'node:path';
import { openReadOnlySqlite, runReadOnlyStatement } from '../../activities/database/sqlite-read-only';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import { copySpiderDb, directoryFingerprint, removeTempDirs, tempDir } from './spider-files';

const pool = new SqliteProcessPool({ size: 2 });
afterAll(async () => {
  await pool.close();
  removeTempDirs();
});

const limits = { timeoutMs: 5000, maxRows: 100 };

function writeAttempts(dir: string): string[] {
  const elsewhere = path.join(dir, 'created-by-attach.sqlite');
  return [
    "INSERT INTO singer (Singer_ID, Name) VALUES (99, 'x')",
    'UPDATE singer SET Age = Age + 1',
    'DELETE FROM singer',
    "REPLACE INTO singer (Singer_ID, Name) VALUES (1, 'x')",
    'DROP TABLE singer',
    'ALTER TABLE singer ADD COLUMN extra TEXT',
    'CREATE TABLE extra (a)',
    'CREATE INDEX extra_idx ON singer (Name)',
    `ATTACH DATABASE '${elsewhere}' AS other`,
    'DETACH DATABASE main',
    'PRAGMA journal_mode=WAL',
    'PRAGMA user_version=1',
    'PRAGMA writable_schema=ON',
    'VACUUM',
    `VACUUM INTO '${path.join(dir, 'vacuumed.sqlite')}'`,
    'REINDEX',
    'ANALYZE',
    'SELECT 1; DELETE FROM singer',
    'SELECT count(*) FROM singer;DELETE FROM singer;',
    '/* just a comment */ DELETE FROM singer',
    '-- a line comment\nDROP TABLE singer',
    "SELECT 'a'; /* ; */ DELETE FROM singer",
    'WITH x AS (SELECT 1) DELETE FROM singer',
    'WITH x AS (SELECT Singer_ID FROM singer) UPDATE singer SET Age = 0 WHERE Singer_ID IN (SELECT * FROM x)',
    'WITH x(id) AS (VALUES (100)) INSERT INTO singer (Singer_ID) SELECT id FROM x',
    'EXPLAIN DELETE FROM singer',
    "SELECT load_extension('/nonexistent/evil')",
    'BEGIN IMMEDIATE',
  ];
}

test('every kind of write is refused with ReadOnlyViolation and the files stay byte-identical', async () => {
  const dir = tempDir('readonly');
  const file = copySpiderDb('concert_singer', dir);
  const before = directoryFingerprint(dir);
  const db = new SqliteDatabase(file, { pool });
  // Connections are open (and cached in the pool's processes) before the attempts.
  expect((await db.execute('SELECT count(*) FROM singer', limits)).rows).toEqual([[6]]);
  for (const sql of writeAttempts(dir)) {
    const outcome = await db.execute(sql, limits).then(
      () => 'ran',
      (err: Error) => err,
    );
    expect([sql, outcome]).toEqual([sql, expect.any(ReadOnlyViolation)]);
    expect((outcome as Error).message).toMatch(/^rejected /);
  }
  expect((await db.execute('SELECT count(*) FROM singer', limits)).rows).toEqual([[6]]);
  await db.close();
  expect(directoryFingerprint(dir)).toEqual(before);
});

// Below the guard: what still protects the file if the guard had a hole.
test('without the guard, the statement check and the read-only connection refuse every write', () => {
  const dir = tempDir('engine');
  const file = copySpiderDb('concert_singer', dir);
  const before = directoryFingerprint(dir);
  const db = openReadOnlySqlite(file);
  try {
    expect(db.pragma('query_only', { simple: true })).toBe(1n);
    // Layer 2: the statement check (sqlite3_stmt_readonly, and "must return rows", which is what
    // stops ATTACH, DETACH and PRAGMA query_only=OFF that SQLite calls read-only) plus the engine.
    for (const sql of [...writeAttempts(dir), 'PRAGMA query_only=OFF', "ATTACH ':memory:' AS scratch"]) {
      expect(() => runReadOnlyStatement(db, sql, [], 10)).toThrow();
    }
    expect(db.pragma('query_only', { simple: true })).toBe(1n);
    // Layer 3: the connection alone, running statements directly, refuses data and schema changes.
    for (const sql of [
      "INSERT INTO singer (Singer_ID, Name) VALUES (99, 'x')",
      'UPDATE singer SET Age = 0',
      'DELETE FROM singer',
      'DROP TABLE singer',
      'CREATE TABLE extra (a)',
      'ALTER TABLE singer ADD COLUMN extra TEXT',
      'PRAGMA journal_mode=WAL',
      'PRAGMA user_version=1',
      'VACUUM',
      'REINDEX',
      'ANALYZE',
    ]) {
      expect(() => db.exec(sql)).toThrow(/readonly database/);
    }
    expect(() => db.exec(`ATTACH DATABASE '${path.join(dir, 'new.sqlite')}' AS other`)).toThrow(/unable to open/);
    expect(() => db.prepare("SELECT load_extension('/nonexistent/evil')").get()).toThrow(/not authorized/);
  } finally {
    db.close();
  }
  expect(directoryFingerprint(dir)).toEqual(before);
});
