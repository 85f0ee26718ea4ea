import mysql from 'mysql2/promise';
import { MysqlDatabase } from '../../activities/database/mysql-database';
import { ReadOnlyViolation } from '../../activities/database/target-database';
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

/**
 * Views defined by a privileged account over a stored function run it with their definer's
 * rights (SQL SECURITY DEFINER), whatever the reader's grants: on MariaDB 10.11 a SELECT-only
 * reader changed @@global.max_connections and wrote a file through one. The database checks the
 * views it can see when it opens, warns naming the unsafe ones (refuses under require) and
 * refuses statements that name them. Privileges past the tables (FILE, SUPER) are named with
 * what they allow.
 */
describe('MySQL views and server-wide privileges', () => {
  const VIEWS = 'account_views';
  const viewsUrl = (user: string) => `mysql://${user}:pw@127.0.0.1:${port}/${VIEWS}`;
  const opened: MysqlDatabase[] = [];
  const open = async (user: string, warnings: string[]) => {
    const db = await MysqlDatabase.connect(viewsUrl(user), { onAccountWarning: (w) => warnings.push(w) });
    opened.push(db);
    return db;
  };
  const refusal = (db: MysqlDatabase, sql: string) =>
    db.execute(sql, limits).then(
      () => null,
      (err: Error) => err,
    );

  beforeAll(async () => {
    const root = await mysql.createConnection(testMysqlUrl());
    await root.query(`DROP DATABASE IF EXISTS ${VIEWS}`);
    await root.query(`CREATE DATABASE ${VIEWS}`);
    await root.query(`CREATE TABLE ${VIEWS}.item (id INT PRIMARY KEY)`);
    await root.query(`INSERT INTO ${VIEWS}.item VALUES (1), (2)`);
    // What the function does does not matter here (the hostile corpus has one that writes): that reading the view calls it does.
    await root.query(`CREATE FUNCTION ${VIEWS}.touch() RETURNS INT DETERMINISTIC RETURN 1`);
    await root.query(`CREATE SQL SECURITY DEFINER VIEW ${VIEWS}.definer_view AS SELECT id, ${VIEWS}.touch() AS t FROM ${VIEWS}.item`);
    await root.query(`CREATE VIEW ${VIEWS}.outer_view AS SELECT id FROM ${VIEWS}.definer_view`);
    await root.query(`CREATE VIEW ${VIEWS}.safe_view AS SELECT id FROM ${VIEWS}.item`);
    for (const [user, grant] of [
      ['file_reader', 'FILE'],
      ['super_reader', 'SUPER'],
    ]) {
      await root.query(`DROP USER IF EXISTS '${user}'@'%'`);
      await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
      await root.query(`GRANT SELECT ON ${VIEWS}.* TO '${user}'@'%'`);
      await root.query(`GRANT ${grant} ON *.* TO '${user}'@'%'`);
    }
    await root.end();
    await createReaderAccount(testMysqlUrl(), { user: 'view_reader', password: 'pw', database: VIEWS });
    await createReaderAccount(testMysqlUrl(), { user: 'blind_reader', password: 'pw', database: VIEWS, showView: false });
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
  });

  it('a reader is warned of the views that call a stored function and of those that read them, which are refused', async () => {
    const warnings: string[] = [];
    const db = await open('view_reader', warnings);
    expect(db.accountCanWrite).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/view_reader.* can only read, but reading these can change the database/);
    expect(warnings[0]).toContain(`view ${VIEWS}.definer_view (it calls stored function touch(), with the rights of root@localhost)`);
    expect(warnings[0]).toContain(`view ${VIEWS}.outer_view (it reads ${VIEWS}.definer_view)`);
    expect(warnings[0]).not.toContain('safe_view');

    for (const sql of [
      'SELECT * FROM definer_view',
      `SELECT id FROM \`${VIEWS}\`.\`OUTER_VIEW\``,
      'SELECT id FROM item WHERE id IN (SELECT id FROM definer_view)',
    ]) {
      const err = await refusal(db, sql);
      expect(err).toBeInstanceOf(ReadOnlyViolation);
      expect(err!.message).toMatch(/rejected a reference to view account_views\.(definer|outer)_view: reading it can change the database/);
    }
    expect((await db.execute('SELECT count(*) FROM safe_view', limits)).rows).toEqual([[2]]);
    expect((await db.execute('SELECT count(*) FROM item', limits)).rows).toEqual([[2]]);
  });

  it('under DECODEX_MYSQL_ACCOUNT=require such views refuse the database', async () => {
    await expect(MysqlDatabase.connect(viewsUrl('view_reader'), { readOnlyAccount: 'require' })).rejects.toThrow(/definer_view.*DECODEX_MYSQL_ACCOUNT=require/);
  });

  it('without SHOW VIEW a reader cannot see definitions: every view with another definer is unsafe and refused', async () => {
    const warnings: string[] = [];
    const db = await open('blind_reader', warnings);
    for (const view of ['definer_view', 'outer_view', 'safe_view'])
      expect(warnings[0]).toContain(
        `view ${VIEWS}.${view} (it runs with the rights of root@localhost and this account cannot read its definition (SHOW VIEW))`,
      );
    expect(await refusal(db, 'SELECT * FROM safe_view')).toBeInstanceOf(ReadOnlyViolation);
    expect((await db.execute('SELECT count(*) FROM item', limits)).rows).toEqual([[2]]);
  });

  it.each([
    ['file_reader', "FILE (reads and writes the server's files)"],
    ['super_reader', 'SUPER (changes server settings or other sessions)'],
  ])('%s: its server-wide privilege is named with what it allows, and refused under require', async (user, named) => {
    const warnings: string[] = [];
    const db = await open(user, warnings);
    expect(db.accountCanWrite).toEqual([named]);
    expect(warnings[0]).toContain(`can write (${named})`);
    await expect(MysqlDatabase.connect(viewsUrl(user), { readOnlyAccount: 'require' })).rejects.toThrow(
      new RegExp(`${user}.*can write \\(${named.replace(/[()]/g, '\\$&')}\\).*DECODEX_MYSQL_ACCOUNT=require`),
    );
  });
});
