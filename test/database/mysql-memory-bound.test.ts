import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { QueryOutOfMemory } from '../../activities/database/target-database';
import { startMariaDb, type RunningMariaDb } from '../../devkit/mariadb';

const MAX_RESULT_MB = 32;

let server: RunningMariaDb;
let db: MysqlDatabase;

beforeAll(async () => {
  server = await startMariaDb();
  const admin = await mysql.createConnection(server.url);
  await admin.query('CREATE DATABASE IF NOT EXISTS dbtest_memory_bound');
  await admin.query('CREATE TABLE IF NOT EXISTS dbtest_memory_bound.seq (n INT PRIMARY KEY)');
  await admin.query('INSERT IGNORE INTO dbtest_memory_bound.seq VALUES ' + Array.from({ length: 200 }, (_, i) => `(${i})`).join(','));
  await admin.end();
  db = await MysqlDatabase.connect(`${server.url.replace(/\/$/, '')}/dbtest_memory_bound`, { maxResultBytes: MAX_RESULT_MB * 2 ** 20 });
}, 120_000);

afterAll(async () => {
  await db?.close();
  await server?.stop();
});

/**
 * The MySQL path streams rows into the worker process itself: 200 rows of 16 MB (3.2 GB) must
 * stop at the result's byte bound with a clear error, and the worker's memory must not follow.
 */
test('huge rows stop at the byte bound of a result; the worker holds tens of MB, not gigabytes', async () => {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const before = process.memoryUsage().rss;
  const outcome = await db.execute("SELECT n, REPEAT('x', 16000000) AS big FROM seq", { timeoutMs: 60_000, maxRows: 1000 }).then(
    () => null,
    (err: Error) => err,
  );
  clearInterval(sampler);
  expect(outcome).toBeInstanceOf(QueryOutOfMemory);
  expect(outcome!.message).toMatch(/out of memory.*32 MB/);
  // The bound, a row in flight and the driver's buffers: well under ten times the bound.
  expect((peak - before) / 2 ** 20).toBeLessThan(MAX_RESULT_MB * 8);
  // The connection that streamed it was dropped, not reused mid-result: the next statement is fine.
  expect((await db.execute('SELECT count(*) FROM seq', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[200]]);
}, 120_000);

test('large cells are cut to maxCellBytes as they arrive: 200 rows of 1 MB text and BLOB are answered, not out of memory', async () => {
  const result = await db.execute("SELECT n, REPEAT('é', 500000) AS text_cell, REPEAT(UNHEX('FF'), 1000000) AS blob_cell FROM seq", {
    timeoutMs: 60_000,
    maxRows: 1000,
    maxCellBytes: 4096,
  });
  expect(result.rows).toHaveLength(200);
  for (const [, text, blob] of result.rows) {
    expect(Buffer.byteLength(text as string)).toBeLessThanOrEqual(4096 + 4);
    expect((blob as { bytes: string }).bytes.length).toBeLessThanOrEqual(((4096 + 4) / 3) * 4 + 4);
  }
}, 120_000);
