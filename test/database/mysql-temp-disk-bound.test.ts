import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { startMariaDb, type RunningMariaDb } from '../../devkit/mariadb';

const TEMP_DISK_MB = 16;
const ROWS = 20_000;

let server: RunningMariaDb;
let db: MysqlDatabase;

beforeAll(async () => {
  server = await startMariaDb();
  const admin = await mysql.createConnection(server.url);
  await admin.query('CREATE DATABASE IF NOT EXISTS dbtest_temp_disk');
  await admin.query('CREATE TABLE IF NOT EXISTS dbtest_temp_disk.t (id INT PRIMARY KEY, v VARCHAR(64))');
  await admin.query('SET SESSION max_recursive_iterations = ?', [ROWS]);
  await admin.query(
    `INSERT IGNORE INTO dbtest_temp_disk.t WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS}) SELECT n, MD5(n) FROM s`,
  );
  await admin.end();
  db = await MysqlDatabase.connect(`${server.url.replace(/\/$/, '')}/dbtest_temp_disk`, { maxTempDiskBytes: TEMP_DISK_MB * 2 ** 20 });
}, 120_000);

afterAll(async () => {
  await db?.close();
  await server?.stop();
});

/**
 * An ORDER BY over a cross join (400 million rows of two md5 strings) materialises the join in an
 * on-disk temporary table before sorting: unbounded, it wrote 855 MB of temp files until the
 * timeout. The read-only session's tmp_disk_table_size stops it within seconds, saying why.
 */
test('a statement that would write gigabytes of temp tables fails within seconds with a clear error', async () => {
  const started = Date.now();
  const outcome = await db.execute('SELECT a.v, b.v FROM t a CROSS JOIN t b ORDER BY a.v, b.v', { timeoutMs: 60_000, maxRows: 10 }).then(
    () => null,
    (err: Error) => err,
  );
  expect(outcome?.message).toMatch(new RegExp(`needs more than ${TEMP_DISK_MB} MB of temporary disk on the server .*DECODEX_MYSQL_TEMP_DISK_MB`));
  expect(Date.now() - started).toBeLessThan(20_000);
  // A statement within the bound still runs, on a session the failure left usable.
  const grouped = await db.execute('SELECT LEFT(v, 1) AS c, count(*) FROM t GROUP BY c ORDER BY c', { timeoutMs: 10_000, maxRows: 100 });
  expect(grouped.rows).toHaveLength(16);

  // The control: with room for it, the same statement is still writing when its 3 s are up.
  const roomy = await MysqlDatabase.connect(`${server.url.replace(/\/$/, '')}/dbtest_temp_disk`, { maxTempDiskBytes: 2 ** 40, onAccountWarning: () => {} });
  try {
    const unbounded = await roomy.execute('SELECT a.v, b.v FROM t a CROSS JOIN t b ORDER BY a.v, b.v', { timeoutMs: 3_000, maxRows: 10 }).then(
      () => null,
      (err: Error) => err,
    );
    expect(unbounded?.name).toBe('QueryTimeout');
  } finally {
    await roomy.close();
  }
}, 90_000);
