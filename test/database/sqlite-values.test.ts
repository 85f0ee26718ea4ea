import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { removeTempDirs, tempDir } from './spider-files';

const pool = new SqliteProcessPool({ size: 1 });
afterAll(async () => {
  await pool.close();
  removeTempDirs();
});

const BLOB = Buffer.from([0, 1, 2, 250, 255]);
let file: string;

beforeAll(() => {
  file = path.join(tempDir('values'), 'values.sqlite');
  const db = new Database(file);
  // No declared type: SQLite stores each value exactly as given.
  db.exec('CREATE TABLE v (id INTEGER PRIMARY KEY, x)');
  const insert = db.prepare('INSERT INTO v (id, x) VALUES (?, ?)');
  [9007199254740993n, -9223372036854775808n, BLOB, null, 1.5, '1', 9007199254740991n].forEach((x, i) => insert.run(i + 1, x));
  db.close();
});

test('values survive exactly: big integers, BLOB, NULL, float, text that looks numeric', async () => {
  const db = new SqliteDatabase(file, { pool });
  const result = await db.execute('SELECT x, typeof(x) FROM v ORDER BY id', { timeoutMs: 5000, maxRows: 100 });
  expect(result.columns).toEqual(['x', 'typeof(x)']);
  expect(result.rows).toEqual([
    [{ int: '9007199254740993' }, 'integer'],
    [{ int: '-9223372036854775808' }, 'integer'],
    [{ bytes: BLOB.toString('base64') }, 'blob'],
    [null, 'null'],
    [1.5, 'real'],
    ['1', 'text'],
    [9007199254740991, 'integer'],
  ]);
  expect(result.truncated).toBe(false);
  expect(result.elapsedMs).toBeGreaterThan(0);
  // What a Temporal payload or an artifact does to it:
  expect(JSON.parse(JSON.stringify(result.rows))).toEqual(result.rows);
  // Arithmetic stays in SQLite's 64-bit integers, not in doubles.
  const sum = await db.execute('SELECT x + 1 FROM v WHERE id = 1', { timeoutMs: 5000, maxRows: 1 });
  expect(sum.rows).toEqual([[{ int: '9007199254740994' }]]);
});

test('statistics keep the same encoding (SQLite orders numbers < text < blobs)', async () => {
  const db = new SqliteDatabase(file, { pool });
  expect(await db.columnStats('v', 'x')).toEqual({
    rowCount: 7,
    nullCount: 1,
    distinctCount: 6,
    min: { int: '-9223372036854775808' },
    max: { bytes: BLOB.toString('base64') },
  });
  const frequent = await db.mostFrequentValues('v', 'x', 10);
  expect(frequent).toHaveLength(6);
  expect(frequent.every((f) => f.count === 1)).toBe(true);
  expect(frequent.map((f) => f.value)).toContainEqual({ int: '9007199254740993' });
  expect(frequent.map((f) => f.value)).not.toContainEqual(null);
  const sample = await db.sampleValues('v', 'x', 10);
  expect(sample).toHaveLength(6);
  expect(sample).toContainEqual({ bytes: BLOB.toString('base64') });
});

test('names with spaces, quotes and keywords are quoted', async () => {
  const weird = path.join(tempDir('names'), 'names.sqlite');
  const setup = new Database(weird);
  setup.exec('CREATE TABLE "order details" ("select" INTEGER, "a""b" TEXT); INSERT INTO "order details" VALUES (1, \'x\'), (1, NULL), (2, \'y\')');
  setup.close();
  const db = new SqliteDatabase(weird, { pool });
  expect((await db.schema()).tables[0].columns.map((c) => c.name)).toEqual(['select', 'a"b']);
  expect(await db.rowCount('order details')).toBe(3);
  expect(await db.columnStats('order details', 'a"b')).toMatchObject({ nullCount: 1, distinctCount: 2, min: 'x', max: 'y' });
  expect(await db.mostFrequentValues('order details', 'select', 1)).toEqual([{ value: 1, count: 2 }]);
  await expect(db.rowCount('no such table')).rejects.toThrow(/no such table/);
});

test('a whole number stored as REAL is reported as such: a JavaScript number cannot say 1.0', async () => {
  const db = new SqliteDatabase(file, { pool });
  const result = await db.execute('SELECT 1, 1.0, 1.5, CAST(2 AS REAL), 1e16 UNION ALL SELECT 3.0, 3, NULL, 2, 10000000000000000', {
    timeoutMs: 5000,
    maxRows: 100,
  });
  expect(result.rows).toEqual([
    [1, 1, 1.5, 2, 1e16],
    [3, 3, null, 2, { int: '10000000000000000' }],
  ]);
  // Only whole-valued REALs are listed: 1.5 is a float by its form, INTEGERs are not.
  expect(result.integralReals).toEqual([
    [0, 1],
    [0, 3],
    [0, 4],
    [1, 0],
  ]);
});
