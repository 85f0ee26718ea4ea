import { writeFileSync } from 'node:fs';
import os from 'node:os';
import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { QueryOutOfMemory } from '../../activities/database/target-database';
import { startMariaDb, type RunningMariaDb } from '../../devkit/mariadb';
import { sampleProcesses } from './process-sampler';

const MAX_RESULT_MB = 32;
/** What the worker may grow by beyond the bound: the driver's socket chunks, V8's own churn. */
const MARGIN_MB = 64;
const DATABASE = 'dbtest_huge_row';

let server: RunningMariaDb;
let db: MysqlDatabase;
let admin: mysql.Connection;

beforeAll(async () => {
  // A server of its own: rows past 16 MB need max_allowed_packet raised, a server-wide setting
  // the shared test server must keep (the hostile corpus compares it).
  server = await startMariaDb({ own: true, serverOptions: ['--max-allowed-packet=1073741824'] });
  admin = await mysql.createConnection(server.url);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  db = await MysqlDatabase.connect(new URL(DATABASE, server.url).toString(), { maxResultBytes: MAX_RESULT_MB * 2 ** 20, onAccountWarning: () => {} });
}, 180_000);

afterAll(async () => {
  await db?.close();
  await admin?.end();
  await server?.stop();
});

/** Peak RSS of this process while `run` runs, over what it was before, in MB. */
async function growth<T>(run: () => Promise<T>): Promise<{ outcome: T; growthMb: number; beforeMb: number; peakMb: number }> {
  global.gc?.();
  // Resets this process's VmHWM (Linux), so the sampler's peak is this statement's.
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // without it the sampler's 20 ms samples of VmRSS still see the peak, give or take
  }
  const beforeMb = process.memoryUsage().rss / 2 ** 20;
  const sampler = sampleProcesses(() => [process.pid], os.tmpdir(), 20);
  const outcome = await run();
  const { rssMb: peakMb } = sampler.stop();
  return { outcome, growthMb: peakMb - beforeMb, beforeMb, peakMb };
}

/** Statements whose text holds `marker`, polled for a few seconds: a killed statement leaves within a moment. */
async function stillRunning(marker: string): Promise<number> {
  let running = 0;
  for (let i = 0; i < 100; i++) {
    const [rows] = await admin.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE ?', [
      `%${marker}%`,
      '%PROCESSLIST%',
    ]);
    running = Number(rows[0].n);
    if (running === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return running;
}

const failure = (sql: string, maxCellBytes?: number) =>
  db.execute(sql, { timeoutMs: 120_000, maxRows: 10, maxCellBytes }).then(
    () => null,
    (err: Error) => err,
  );

/**
 * One row of 1 GiB used to take the worker from 89 MB to 2.2 GB: mysql2 reads a whole row before
 * anything can count it, and assembles a row of many 16 MB packets by copying them. The packet
 * watchdog stops it at the first packet header past the bound: the worker grows by about the
 * bound, the statement fails with QueryOutOfMemory, the server stops, the next statement runs.
 */
test('a 1 GiB row fails with QueryOutOfMemory while the worker grows by about the bound', async () => {
  const { outcome, growthMb, beforeMb, peakMb } = await growth(() => failure("SELECT REPEAT('x', 1024 * 1024 * 1024) AS huge_row_marker"));
  console.log(`1 GiB row: RSS ${beforeMb.toFixed(0)} MB before, ${peakMb.toFixed(0)} MB at the peak (bound ${MAX_RESULT_MB} MB)`);
  expect(outcome).toBeInstanceOf(QueryOutOfMemory);
  expect(outcome!.message).toMatch(new RegExp(`one row of the statement is over ${MAX_RESULT_MB} MB`));
  expect(growthMb).toBeLessThan(MAX_RESULT_MB + MARGIN_MB);
  // KILL QUERY, then the connection closed: the server is not left sending the row to no one.
  expect(await stillRunning('huge_row_marker')).toBe(0);
  expect((await db.execute('SELECT 1', { timeoutMs: 10_000, maxRows: 1 })).rows).toEqual([[1]]);
}, 300_000);

test('rows of 100 MB fail the same way, even when their cells would be cut to 4 KB: the cut comes after the row is read', async () => {
  const { outcome, growthMb } = await growth(() =>
    failure("SELECT REPEAT('x', 100 * 1024 * 1024) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) AS three", 4096),
  );
  expect(outcome).toBeInstanceOf(QueryOutOfMemory);
  expect(growthMb).toBeLessThan(MAX_RESULT_MB + MARGIN_MB);
}, 300_000);

test('rows of several 16 MB packets within the bound are read whole, and the rows after them too', async () => {
  const rows = await db.execute("SELECT n, REPEAT('y', 20 * 1024 * 1024) FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) AS three ORDER BY n", {
    timeoutMs: 120_000,
    maxRows: 10,
    maxCellBytes: 4096,
  });
  expect(rows.rows.map((r) => r[0])).toEqual([1, 2, 3]);
  expect(rows.rows.every((r) => String(r[1]).startsWith('yyyy'))).toBe(true);
}, 300_000);
