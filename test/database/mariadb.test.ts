import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { QueryTimeout, type ExecuteOptions } from '../../activities/database/target-database';
import { encodeSqlValue, type SqlValue } from '../../core/sql-value';
import { startMariaDb, type RunningMariaDb } from '../../devkit/mariadb';
import { loadSpiderDatabase, type LoadedSpiderDatabase } from '../support/spider-to-mysql';
import { expectEachRefused } from './expect-refused';
import { runUnguarded } from '../support/mysql-unguarded';
import { sameRowMultiset } from '../../devkit/same-rows';
import { expectSameTableStatistics } from './same-statistics';
import { devGoldSql, spiderDbPath, storageClassCounter } from './spider-files';

const SPIDER_DBS = ['concert_singer', 'pets_1', 'employee_hire_evaluation', 'car_1'];
/** Our own database names, so a shared server's other tests (which may load the same Spider dbs) are not disturbed. */
const mysqlName = (spider: string) => `dbtest_${spider}`;

/**
 * Gold queries whose answer legitimately depends on the engine, with why. Every other dev gold
 * query of these databases must give the same rows on both.
 */
const ENGINE_DEPENDENT: Record<string, string> = {
  'select max(capacity), average from stadium': 'bare column next to an aggregate: SQLite takes it from the row holding the max, MariaDB from any row',
  'SELECT YEAR FROM concert GROUP BY YEAR ORDER BY count(*) DESC LIMIT 1': '2014 and 2015 tie on count; LIMIT 1 picks either',
  'SELECT T1.Model FROM CAR_NAMES AS T1 JOIN CARS_DATA AS T2 ON T1.MakeId  =  T2.Id ORDER BY T2.horsepower ASC LIMIT 1;':
    'several cars tie on the lowest horsepower; LIMIT 1 picks any',
  'SELECT count(*) FROM CARS_DATA WHERE horsepower  >  150;': 'horsepower is TEXT: SQLite compares it with 150 as text, MariaDB as a number',
};

let server: RunningMariaDb;
const loaded: Record<string, LoadedSpiderDatabase> = {};
const pool = new SqliteProcessPool({ size: 2 });
const opened: MysqlDatabase[] = [];

async function openMysql(spider: string): Promise<MysqlDatabase> {
  const db = await MysqlDatabase.connect(loaded[spider].url);
  opened.push(db);
  return db;
}

beforeAll(async () => {
  server = await startMariaDb();
  for (const name of SPIDER_DBS) loaded[name] = await loadSpiderDatabase(spiderDbPath(name), server.url, { database: mysqlName(name) });
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await pool.close();
  await server?.stop();
});

const big: ExecuteOptions = { timeoutMs: 20_000, maxRows: 1_000_000 };

describe.each(SPIDER_DBS)('%s on MariaDB', (name) => {
  test('introspection and statistics agree with the SQLite original', async () => {
    const db = await openMysql(name);
    const lite = new SqliteDatabase(spiderDbPath(name), { pool });
    const mySchema = await db.schema();
    const liteSchema = await lite.schema();
    expect(mySchema.dialect).toBe('mysql');
    const byName = <T extends { name: string }>(tables: T[]) => [...tables].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    const myTables = byName(mySchema.tables);
    const liteTables = byName(liteSchema.tables);
    expect(myTables.map((t) => t.name.toLowerCase())).toEqual(liteTables.map((t) => t.name.toLowerCase()));

    const typesOf = storageClassCounter(spiderDbPath(name));
    try {
      for (const [i, mine] of myTables.entries()) {
        const theirs = liteTables[i];
        expect(mine.columns.map((c) => c.name)).toEqual(theirs.columns.map((c) => c.name));
        expect(mine.primaryKey).toEqual(theirs.primaryKey);
        expect(
          mine.columns
            .filter((c) => c.primaryKey)
            .map((c) => c.name)
            .sort(),
        ).toEqual([...mine.primaryKey].sort());
        await expectSameTableStatistics(db, mine.name, lite, theirs, typesOf);
      }
    } finally {
      typesOf.close();
    }
    // Foreign keys: exactly those the loader could create (it reports the ones MariaDB refused).
    const fkText = (fks: { fromTable: string; fromColumns: string[]; toTable: string; toColumns: string[] }[]) =>
      fks.map((f) => `${f.fromTable}(${f.fromColumns})->${f.toTable}(${f.toColumns})`.toLowerCase()).sort();
    expect(fkText(mySchema.tables.flatMap((t) => t.foreignKeys))).toEqual(fkText(loaded[name].foreignKeys));
    expect(loaded[name].foreignKeys.length).toBeGreaterThan(0);
  });

  test('dev gold SQL gives the same rows as on SQLite', async () => {
    const db = await openMysql(name);
    const lite = new SqliteDatabase(spiderDbPath(name), { pool });
    const gold = devGoldSql(name);
    expect(gold.length).toBeGreaterThan(30);
    const compared = gold.filter((sql) => !ENGINE_DEPENDENT[sql]);
    expect(compared.length / gold.length).toBeGreaterThanOrEqual(0.9);
    const different: string[] = [];
    for (const sql of compared) {
      const [a, b] = await Promise.all([lite.execute(sql, big), db.execute(sql, big)]);
      expect(a.truncated || b.truncated).toBe(false);
      if (!sameRowMultiset(a.rows, b.rows))
        different.push(`${sql}\n  sqlite: ${JSON.stringify(a.rows).slice(0, 200)}\n  mysql:  ${JSON.stringify(b.rows).slice(0, 200)}`);
    }
    expect(different).toEqual([]);
  });
});

test('the engine-dependent list is current: each entry is a gold query that really differs', async () => {
  const all = new Map(SPIDER_DBS.flatMap((name) => devGoldSql(name).map((sql) => [sql, name] as const)));
  for (const [sql] of Object.entries(ENGINE_DEPENDENT)) {
    const name = all.get(sql)!;
    expect(name).toBeDefined();
    const db = await openMysql(name);
    const lite = new SqliteDatabase(spiderDbPath(name), { pool });
    const [a, b] = await Promise.all([lite.execute(sql, big), db.execute(sql, big)]);
    expect([sql, sameRowMultiset(a.rows, b.rows)]).toEqual([sql, false]);
  }
});

describe('read-only on MariaDB', () => {
  test('every kind of write is refused with ReadOnlyViolation and no table changes', async () => {
    const db = await openMysql('concert_singer');
    const admin = await mysql.createConnection(loaded.concert_singer.url);
    try {
      const fingerprint = async () => {
        const [tables] = await admin.query({ sql: 'SHOW TABLES', rowsAsArray: true });
        const names = (tables as string[][]).map((r) => r[0]);
        const [sums] = await admin.query({ sql: `CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(', ')} EXTENDED`, rowsAsArray: true });
        return JSON.stringify([names, sums]);
      };
      const before = await fingerprint();
      const attempts = [
        "INSERT INTO singer (Singer_ID, Name) VALUES (99, 'x')",
        'UPDATE singer SET Age = Age + 1',
        'DELETE FROM singer',
        "REPLACE INTO singer (Singer_ID, Name) VALUES (1, 'x')",
        'DROP TABLE singer',
        'TRUNCATE singer',
        'ALTER TABLE singer ADD COLUMN extra TEXT',
        'CREATE TABLE extra (a INT)',
        'CREATE TEMPORARY TABLE extra (a INT)',
        'RENAME TABLE singer TO singer2',
        'SELECT 1; DELETE FROM singer',
        '/* comment */ DELETE FROM singer',
        '# comment\nDELETE FROM singer',
        'WITH x AS (SELECT 1) DELETE FROM singer',
        "SELECT * FROM singer INTO OUTFILE '/tmp/decodex-outfile'",
        "SELECT * FROM singer INTO DUMPFILE '/tmp/decodex-dumpfile'",
        'SELECT 1 INTO @x',
        'SELECT * FROM singer FOR UPDATE',
        'SELECT * FROM singer LOCK IN SHARE MODE',
        'LOCK TABLES singer WRITE',
        'SET GLOBAL max_connections = 1',
        'SET STATEMENT max_statement_time = 1 FOR DELETE FROM singer',
        'CALL mysql.nothing()',
        'HANDLER singer OPEN',
        'DO SLEEP(0)',
        'SELECT 1 /*! ; DELETE FROM singer */',
        "LOAD DATA INFILE '/etc/hosts' INTO TABLE singer",
        "GRANT ALL ON *.* TO 'x'@'%'",
        'FLUSH TABLES',
        'START TRANSACTION',
      ];
      await expectEachRefused(db, attempts);
      expect(await fingerprint()).toBe(before);
    } finally {
      await admin.end();
    }
  });

  test('a timeout is a KILL QUERY: the server stops, before its own backstop limit, and the database keeps working', async () => {
    const db = await openMysql('car_1');
    const watcher = await mysql.createConnection(loaded.car_1.url);
    try {
      for (const sql of ['SELECT SLEEP(5) AS marker_sleep', 'SELECT count(*) AS marker_join FROM cars_data a, cars_data b, cars_data c, cars_data d']) {
        const started = Date.now();
        // SLEEP is off the allowlist: it runs past the guard, as a statement that slipped through would.
        const outcome = await runUnguarded(db, sql, { timeoutMs: 500, maxRows: 10 }).catch((e: Error) => e);
        const ms = Date.now() - started;
        expect(outcome).toBeInstanceOf(QueryTimeout);
        // The server's own limit would only fire at 500 + 1000 ms: stopping before that is our KILL.
        expect(ms).toBeLessThan(500 + 900);
        expect(ms).toBeGreaterThanOrEqual(490);
        const marker = sql.includes('marker_sleep') ? 'marker_sleep' : 'marker_join';
        await expectNotRunning(watcher, marker);
      }
      expect((await db.execute('SELECT count(*) FROM car_makers', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[22]]);
    } finally {
      await watcher.end();
    }
  });

  test('row cap: truncated flag, also when the query has a larger LIMIT of its own; connections stay usable', async () => {
    const db = await openMysql('car_1');
    const capped = await db.execute('SELECT Id FROM cars_data ORDER BY Id', { timeoutMs: 5000, maxRows: 3 });
    expect(capped).toMatchObject({ columns: ['Id'], rows: [[1], [2], [3]], truncated: true });
    const ownLimit = await db.execute('SELECT a.Id FROM cars_data a, cars_data b ORDER BY a.Id LIMIT 100000', { timeoutMs: 5000, maxRows: 4 });
    expect(ownLimit).toMatchObject({ rows: [[1], [1], [1], [1]], truncated: true });
    const exact = await db.execute('SELECT Id FROM cars_data ORDER BY Id LIMIT 3', { timeoutMs: 5000, maxRows: 3 });
    expect(exact.truncated).toBe(false);
    for (let i = 0; i < 6; i++) expect((await db.execute(`SELECT ${i}`, { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[i]]);
  });

  test('a result cut by the server-side row cap keeps its connection; one that had to be killed does not', async () => {
    const db = await MysqlDatabase.connect(loaded.car_1.url, { connectionLimit: 1 });
    opened.push(db);
    const connectionId = async () => (await db.execute('SELECT CONNECTION_ID()', { timeoutMs: 5000, maxRows: 1 })).rows[0][0];
    const first = await connectionId();
    expect((await db.execute('SELECT Id FROM cars_data', { timeoutMs: 5000, maxRows: 2 })).truncated).toBe(true);
    expect(await connectionId()).toBe(first);
    // A short result past the cap just ends: nothing to kill.
    expect((await db.execute('SELECT Id FROM cars_data LIMIT 300', { timeoutMs: 5000, maxRows: 2 })).truncated).toBe(true);
    expect(await connectionId()).toBe(first);
    // 67 million rows under a LIMIT of its own: the server would go on, so it is killed.
    const started = Date.now();
    const huge = await db.execute('SELECT a.Id FROM cars_data a, cars_data b, cars_data c LIMIT 100000000', { timeoutMs: 20_000, maxRows: 2 });
    expect(huge.truncated).toBe(true);
    // Far less than streaming 67 million rows would take, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await connectionId()).not.toBe(first);
  });
});

test('MariaDB values are faithful', async () => {
  const admin = await mysql.createConnection({ uri: server.url, multipleStatements: true });
  try {
    await admin.query(`
      DROP DATABASE IF EXISTS dbtest_values;
      CREATE DATABASE dbtest_values;
      USE dbtest_values;
      CREATE TABLE v (
        id INT PRIMARY KEY, b BIGINT, u BIGINT UNSIGNED, d DECIMAL(10,2), wide DECIMAL(38,10), f DOUBLE,
        s VARCHAR(10), bin BLOB, day DATE, moment DATETIME(3), t TIME, j JSON, flag BIT(8));
      INSERT INTO v VALUES
        (1, 9007199254740993, 18446744073709551615, 1.50, 12345678901234567890.1234567891, 1.5, '1', x'00ff10', '2024-02-29', '2024-02-29 23:59:58.125', '-01:02:03', '{"a": [1, 2]}', b'10100101'),
        (2, -9223372036854775808, 0, -0.25, 100, -0.1, '', x'', '1000-01-01', '1970-01-01 00:00:00', '00:00:00', 'null', b'0'),
        (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    `);
  } finally {
    await admin.end();
  }
  const db = await MysqlDatabase.connect(`${server.url}dbtest_values`);
  opened.push(db);
  const result = await db.execute('SELECT b, u, d, wide, f, s, bin, day, moment, t, j, flag FROM v ORDER BY id', { timeoutMs: 5000, maxRows: 10 });
  expect(result.rows).toEqual([
    [
      { int: '9007199254740993' },
      { int: '18446744073709551615' },
      1.5,
      '12345678901234567890.1234567891',
      1.5,
      '1',
      bytes([0, 0xff, 0x10]),
      '2024-02-29',
      '2024-02-29 23:59:58.125',
      '-01:02:03',
      '{"a": [1, 2]}',
      bytes([0xa5]),
    ],
    [{ int: '-9223372036854775808' }, 0, -0.25, 100, -0.1, '', bytes([]), '1000-01-01', '1970-01-01 00:00:00.000', '00:00:00', 'null', bytes([0])],
    Array(12).fill(null),
  ]);
  const aggregates = await db.execute('SELECT COUNT(*), SUM(b), AVG(d), SUM(u), 7 / 2, MAX(b) FROM v', { timeoutMs: 5000, maxRows: 1 });
  expect(aggregates.rows).toEqual([[3, { int: '-9214364837600034815' }, 0.625, { int: '18446744073709551615' }, 3.5, { int: '9007199254740993' }]]);
  // Statistics use the same encoding.
  expect(await db.columnStats('v', 'b')).toEqual({
    rowCount: 3,
    nullCount: 1,
    distinctCount: 2,
    min: { int: '-9223372036854775808' },
    max: { int: '9007199254740993' },
  });
});

function bytes(values: number[]): SqlValue {
  return encodeSqlValue(Buffer.from(values));
}

/** Polls the server's process list: a killed statement disappears within a moment. */
async function expectNotRunning(watcher: mysql.Connection, marker: string): Promise<void> {
  let running = 1;
  for (let i = 0; i < 20 && running > 0; i++) {
    const [rows] = await watcher.query({
      sql: "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
      values: [`%${marker}%`],
      rowsAsArray: true,
    });
    running = Number((rows as unknown[][])[0][0]);
    if (running > 0) await new Promise((r) => setTimeout(r, 50));
  }
  expect([marker, running]).toEqual([marker, 0]);
}
