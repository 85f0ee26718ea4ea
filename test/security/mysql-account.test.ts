import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { testMysqlUrl } from '../../devkit/mariadb';
import { createReaderAccount, READER_MAX_STATEMENT_SECONDS } from '../../devkit/mysql-reader-account';

/**
 * Issue 12, points 7 and 8 on a real MariaDB: a pooled connection's session state (user
 * variables, temporary tables) never reaches the next question, and the account's grants are
 * checked when the database opens: a warning for an account that can write, a refusal on request.
 */
const DATABASE = 'account_check';
const server = new URL(testMysqlUrl());
const port = server.port || '3306';
const urlFor = (user: string, password: string) => `mysql://${user}:${password}@127.0.0.1:${port}/${DATABASE}`;
const limits = { timeoutMs: 5000, maxRows: 10 };

describe('MySQL sessions and accounts', () => {
  const opened: MysqlDatabase[] = [];
  const open = async (url: string, options: Parameters<typeof MysqlDatabase.connect>[1] = {}) => {
    const db = await MysqlDatabase.connect(url, options);
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    const root = await mysql.createConnection(testMysqlUrl());
    await root.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await root.query(`CREATE DATABASE ${DATABASE}`);
    await root.query(`CREATE TABLE ${DATABASE}.item (id INT PRIMARY KEY)`);
    await root.query(`INSERT INTO ${DATABASE}.item VALUES (1), (2)`);
    await root.query(`DROP USER IF EXISTS 'rw_writer'@'%'`);
    await root.query(`CREATE USER 'rw_writer'@'%' IDENTIFIED BY 'pw'`);
    await root.query(`GRANT SELECT, INSERT, DELETE ON ${DATABASE}.* TO 'rw_writer'@'%'`);
    await root.end();
    // The reader as decodex's own tooling creates one: SELECT and SHOW VIEW on the database, nothing else.
    await createReaderAccount(testMysqlUrl(), { user: 'ro_reader', password: 'pw', database: DATABASE });
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
  });

  it('a user variable set by one statement is gone for the next one on the same pooled connection', async () => {
    const db = await open(urlFor('ro_reader', 'pw'), { connectionLimit: 1 });
    const set = await db.execute('SELECT @leak := 42 AS v', limits);
    expect(set.rows).toEqual([[42]]);
    const later = await db.execute('SELECT @leak AS v, CONNECTION_ID() AS id', limits);
    expect(later.rows[0][0]).toBeNull();
    // Same connection (the pool has one), so the variable was reset, not left on another connection.
    const again = await db.execute('SELECT CONNECTION_ID()', limits);
    expect(again.rows[0][0]).toBe(later.rows[0][1]);
  });

  it('a SELECT-only account opens with no warning', async () => {
    const warnings: string[] = [];
    const db = await open(urlFor('ro_reader', 'pw'), { onAccountWarning: (w) => warnings.push(w) });
    expect(db.accountCanWrite).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("the tooling's reader account has SELECT and SHOW VIEW on its database only, and on MariaDB a default statement time limit", async () => {
    const reader = await mysql.createConnection(urlFor('ro_reader', 'pw'));
    try {
      const [grants] = await reader.query({ sql: 'SHOW GRANTS', rowsAsArray: true });
      const lines = (grants as string[][]).map((r) => r[0]);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^GRANT USAGE ON \*\.\* TO `ro_reader`@`%`/);
      expect(lines[1]).toBe(`GRANT SELECT, SHOW VIEW ON \`${DATABASE}\`.* TO \`ro_reader\`@\`%\``);
      const [[limit]] = (await reader.query({ sql: 'SELECT @@session.max_statement_time', rowsAsArray: true }))[0] as number[][];
      expect(Number(limit)).toBe(READER_MAX_STATEMENT_SECONDS);
    } finally {
      await reader.end();
    }
  });

  it('an account that can write is named with its write privileges, and refused when asked to', async () => {
    const warnings: string[] = [];
    const db = await open(urlFor('rw_writer', 'pw'), { onAccountWarning: (w) => warnings.push(w) });
    expect(db.accountCanWrite).toEqual(expect.arrayContaining(['INSERT', 'DELETE']));
    expect(warnings).toHaveLength(1);
    expect(db.warnings).toEqual(warnings); // also in the run's trace (openQuestion's outcome)
    expect(warnings[0]).toMatch(/rw_writer.*can write \(.*INSERT.*\).*SELECT-only account/);
    expect(warnings[0]).not.toContain(':pw@');

    await expect(MysqlDatabase.connect(urlFor('rw_writer', 'pw'), { readOnlyAccount: 'require' })).rejects.toThrow(
      /rw_writer.*can write.*DECODEX_MYSQL_ACCOUNT=require/,
    );
    // root has every privilege, FILE and CREATE USER included.
    await expect(MysqlDatabase.connect(`${testMysqlUrl().replace(/\/$/, '')}/${DATABASE}`, { readOnlyAccount: 'require' })).rejects.toThrow(
      /can write \(.*(ALL PRIVILEGES|FILE)/,
    );
  });
});
