import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import { testMysqlUrl } from '../../devkit/mariadb';
import { runUnguarded } from '../support/mysql-unguarded';

/**
 * One statement on the wire: MysqlDatabase's connections are opened with multipleStatements
 * off, so the server itself refuses a second statement (a syntax error) even when the guard,
 * bypassed here, would let one through. As root, so no missing privilege is what stops it.
 * Generated SQL reaches MySQL only through MysqlDatabase's pool (its kill pool sends KILL QUERY
 * with a thread id and nothing else).
 */
const DATABASE = 'dbtest_one_statement';
const limits = { timeoutMs: 20_000, maxRows: 10 };
let db: MysqlDatabase;
let root: mysql.Connection;

beforeAll(async () => {
  root = await mysql.createConnection(testMysqlUrl());
  await root.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await root.query(`CREATE DATABASE ${DATABASE}`);
  await root.query(`CREATE TABLE ${DATABASE}.keep (x INT)`);
  db = await MysqlDatabase.connect(new URL(DATABASE, testMysqlUrl()).toString(), { onAccountWarning: () => {} });
}, 60_000);

afterAll(async () => {
  await db?.close();
  await root?.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await root?.end();
});

const tables = async () => {
  const [rows] = await root.query<mysql.RowDataPacket[]>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? ORDER BY 1', [DATABASE]);
  return rows.map((r) => String(r.t));
};

test.each([
  'SELECT 1; CREATE TABLE pwned (x int)',
  'SELECT 1;CREATE TABLE pwned (x int)',
  'SELECT 1; DROP TABLE keep',
  'SELECT 1 /* ; */; CREATE TABLE pwned (x int); SELECT 2',
])('past the guard, %s is a syntax error on the server and changes nothing', async (sql) => {
  const outcome = await runUnguarded(db, sql, limits).then(
    () => null,
    (err: Error & { errno?: number }) => err,
  );
  expect(outcome?.errno).toBe(1064); // ER_PARSE_ERROR: the server read one statement, and the rest as part of it
  expect(await tables()).toEqual(['keep']);
});

test('the guard refuses it first', async () => {
  await expect(db.execute('SELECT 1; CREATE TABLE pwned (x int)', limits)).rejects.toBeInstanceOf(ReadOnlyViolation);
  expect(await tables()).toEqual(['keep']);
});
