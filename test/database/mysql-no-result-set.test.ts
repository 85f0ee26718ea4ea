import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import { testMysqlUrl } from '../../devkit/mariadb';
import { runUnguarded } from '../support/mysql-unguarded';

/**
 * SELECT ... INTO past the statement guard (the guard refuses INTO; here it is bypassed, as a
 * lexing gap once let it through). The server answers with an OK packet instead of a result set,
 * after its write happened. That reply used to throw inside mysql2's packet handling, on the
 * connection instead of the statement: the statement hung until its timeout and was reported as
 * a timeout. Now it ends at once with a clear ReadOnlyViolation, its connection is closed rather
 * than reused, and the worker (this process) carries on.
 */
const DATABASE = 'dbtest_no_result_set';
const limits = { timeoutMs: 20_000, maxRows: 10 };
const outDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-into-'));
let db: MysqlDatabase;

beforeAll(async () => {
  chmodSync(outDir, 0o777); // the server's account writes here
  const root = await mysql.createConnection(testMysqlUrl());
  await root.query(`CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
  await root.end();
  db = await MysqlDatabase.connect(new URL(DATABASE, testMysqlUrl()).toString(), { connectionLimit: 1, onAccountWarning: () => {} });
}, 60_000);

afterAll(async () => {
  await db?.close();
  const root = await mysql.createConnection(testMysqlUrl());
  await root.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await root.end();
});

const connectionId = async () => (await db.execute('SELECT CONNECTION_ID()', limits)).rows[0][0];

test.each([
  ['SELECT 1 INTO @x', null],
  [`SELECT 'written' INTO OUTFILE '${outDir}/outfile.txt'`, 'outfile.txt'],
  [`SELECT 'dumped' INTO DUMPFILE '${outDir}/dumpfile.bin'`, 'dumpfile.bin'],
])(
  '%s: a clear error at once, not a timeout; its connection is not reused',
  async (sql, file) => {
    const before = await connectionId();
    const started = Date.now();
    const outcome = await runUnguarded(db, sql, limits).then(
      () => null,
      (err: Error) => err,
    );
    expect(outcome).toBeInstanceOf(ReadOnlyViolation);
    expect(outcome!.message).toMatch(/without a result set.*SELECT \.\.\. INTO.*may already have taken effect/);
    // Far from the 20 s timeout it used to wait for.
    expect(Date.now() - started).toBeLessThan(5000);
    // The statement did reach the server: what the layers above must stop, this layer reports honestly.
    if (file) expect(readFileSync(path.join(outDir, file), 'utf8')).toMatch(/written|dumped/);
    // The next statement runs, on a new connection (the pool holds one), where @x is unset.
    expect(await connectionId()).not.toBe(before);
    expect((await db.execute('SELECT @x', limits)).rows).toEqual([[null]]);
  },
  60_000,
);

test('the guard refuses the same statements before they reach the server', async () => {
  for (const sql of ['SELECT 1 INTO @x', `SELECT 1 INTO OUTFILE '${outDir}/guarded.txt'`]) {
    await expect(db.execute(sql, limits)).rejects.toBeInstanceOf(ReadOnlyViolation);
  }
  expect(existsSync(path.join(outDir, 'guarded.txt'))).toBe(false);
});
