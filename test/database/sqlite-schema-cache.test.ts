import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';

/**
 * The schema is read once and kept while its fingerprint holds: every change a user can make
 * to its schema (DDL by another connection, in rollback or WAL mode) is still seen at once.
 */
const pool = new SqliteProcessPool({ size: 2 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-schema-cache-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

function createDatabase(name: string, ddl: string[], wal = false): string {
  const file = path.join(dir, name);
  const db = new Database(file);
  if (wal) db.pragma('journal_mode = WAL');
  for (const statement of ddl) db.exec(statement);
  db.close();
  return file;
}

const tableNames = async (db: SqliteDatabase) => (await db.schema()).tables.map((t) => t.name);

/** Counts the statements the database runs for decodex itself (introspection, not generated SQL). */
function countingInternalQueries(db: SqliteDatabase): string[] {
  const seen: string[] = [];
  const internal = db as unknown as { internalQuery: (sql: string) => Promise<unknown> };
  const original = internal.internalQuery.bind(db);
  internal.internalQuery = (sql: string) => {
    seen.push(sql);
    return original(sql);
  };
  return seen;
}

test('an unchanged schema is read once; later calls cost one small query and return equal, independent copies', async () => {
  const file = createDatabase('unchanged.sqlite', ['CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT)', 'CREATE TABLE b (a_id INT REFERENCES a(id))']);
  const db = new SqliteDatabase(file, { pool });
  const queries = countingInternalQueries(db);
  const first = await db.schema();
  const readQueries = queries.length;
  expect(readQueries).toBeGreaterThan(1); // the fingerprint and the three schema queries
  const second = await db.schema();
  expect(queries.length - readQueries).toBe(1); // the fingerprint only
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
  // A caller that changes its copy changes nobody else's: the one that read it or a later one.
  const expected = structuredClone(first);
  first.tables.pop();
  second.tables[0].columns.pop();
  second.tables.pop();
  expect(await db.schema()).toEqual(expected);
  await db.close();
});

test.each([
  ['rollback journal', false],
  ['WAL', true],
])('a table added or dropped by another connection (%s) is seen at the next call', async (_mode, wal) => {
  const file = createDatabase(`ddl-${wal ? 'wal' : 'journal'}.sqlite`, ['CREATE TABLE a (id INT)'], wal);
  const db = new SqliteDatabase(file, { pool });
  expect(await tableNames(db)).toEqual(['a']);
  const writer = new Database(file);
  writer.exec('CREATE TABLE b (id INT)');
  expect(await tableNames(db)).toEqual(['a', 'b']);
  writer.exec('ALTER TABLE a ADD COLUMN label TEXT');
  expect((await db.schema()).tables[0].columns.map((c) => c.name)).toEqual(['id', 'label']);
  writer.exec('DROP TABLE b');
  expect(await tableNames(db)).toEqual(['a']);
  writer.close();
  await db.close();
});
