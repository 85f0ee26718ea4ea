import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { createDatabaseActivities } from '../../activities/database/database-activities';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { spiderDatabasePath } from '../../devkit/datasets';
import { startMariaDb, type RunningMariaDb } from '../../devkit/mariadb';
import { createReaderAccount } from '../../devkit/mysql-reader-account';
import { loadSpiderDatabase } from '../support/spider-to-mysql';
import { mysqlServerState } from '../support/mysql-server-state';
import { CORPUS_LIMITS, runHostileCorpus, type HostileStatement } from './run-hostile-corpus';

interface MysqlHostileStatement extends HostileStatement {
  /** What a SELECT-only reader gets when it differs (LOAD_FILE without FILE is NULL, not an error). */
  expectAsReader?: HostileStatement['expect'];
  /** The guard work on main this entry waits for; until then it is expected to fail on this branch. */
  needs?: string;
  /** Why the entry is there, when its SQL does not say. */
  why?: string;
}

/**
 * The read-only corpus on MariaDB 10.11 (mysql-hostile-statements.json): comment terminators and
 * control bytes, quoting and escapes, executable comments, statement chaining, writes through
 * stored functions and SQL SECURITY DEFINER views, settings, locks, files, size and temp-disk
 * bombs. Each runs through the executeSql activity as a workflow runs generated SQL, once as
 * root (the statement guard, the session and the read-only transaction are the only barrier)
 * and once as a reader with SELECT only on the database. After each run the server is unchanged
 * (mysqlServerState: tables, sequence, routines, views, accounts, databases, variables, locks,
 * data directory), no file appeared in the folder statements tried to write to, the pooled
 * session answers as a fresh one does, and this process (the worker) is alive.
 *
 * Entries with `needs` wait on the lead's guard work (comments stripped with MariaDB's rules,
 * control bytes refused, a function allowlist): they run last, in tests of their own; as root
 * they fail until that work is merged (a file written, a function run), as the reader they pass.
 */
const CORPUS: MysqlHostileStatement[] = JSON.parse(readFileSync(path.join(__dirname, 'mysql-hostile-statements.json'), 'utf8'));
const DATABASE = 'hostile_corpus';
const ACCOUNTS = ['root', 'reader'] as const;
type Account = (typeof ACCOUNTS)[number];

/**
 * What a leaked session would show: variables, settings decodex does not pin, a transaction left
 * open. No function call, which main's allowlist might refuse; a lock left held shows in
 * mysqlServerState (IS_FREE_LOCK, read as root).
 */
const SESSION_SQL =
  'SELECT @x, @leak, @@session.sql_mode, @@session.max_statement_time, @@session.sql_select_limit, @@session.tmp_disk_table_size, ' +
  '@@session.autocommit, @@session.time_zone, @@session.character_set_client, @@session.collation_connection, @@session.tx_isolation, ' +
  '@@session.foreign_key_checks, @@session.group_concat_max_len, @@session.max_recursive_iterations, @@in_transaction';

const expectationFor = (statement: MysqlHostileStatement, account: Account): MysqlHostileStatement =>
  account === 'reader' && statement.expectAsReader ? { ...statement, expect: statement.expectAsReader } : statement;

describe('hostile MariaDB statements change nothing, as root and as a SELECT-only reader', () => {
  let server: RunningMariaDb;
  const escape = mkdtempSync(path.join(os.tmpdir(), 'decodex-mysql-escape-'));
  const urls = {} as Record<Account, string>;
  const registries: DatabaseRegistry[] = [];
  /** An executeSql activity over a registry of its own: one pooled connection, so what a statement leaves in its session is there for the next. */
  const activity = () => {
    const registry = new DatabaseRegistry((spec) =>
      openTargetDatabase(spec, { mysql: { connectionLimit: 1, maxResultBytes: 2 ** 20, onAccountWarning: () => {} } }),
    );
    registries.push(registry);
    return { registry, executeSql: createDatabaseActivities(registry).executeSql };
  };

  beforeAll(async () => {
    // Writable by the server's account: a file missing there was never written.
    chmodSync(escape, 0o777);
    // A server of its own: the corpus compares every account, database and global variable, and
    // rows of 50 MB need max_allowed_packet raised (so the size bombs reach the packet watchdog).
    server = await startMariaDb({ own: true, serverOptions: ['--max-allowed-packet=67108864'] });
    urls.root = (await loadSpiderDatabase(spiderDatabasePath('concert_singer'), server.url, { database: DATABASE })).url;
    const root = await mysql.createConnection(urls.root);
    await root.query('CREATE SEQUENCE seq');
    // A stored function that changes the server and writes a file, and a view that runs it with root's rights.
    await root.query(
      `CREATE FUNCTION sneaky() RETURNS INT BEGIN SET GLOBAL max_connections = @@global.max_connections + 1; ` +
        `SELECT 'sneaky' INTO OUTFILE '${escape}/sneaky.txt'; RETURN 1; END`,
    );
    await root.query('CREATE SQL SECURITY DEFINER VIEW sneaky_view AS SELECT Name, sneaky() AS s FROM singer');
    await root.query('CREATE VIEW sneaky_outer AS SELECT Name FROM sneaky_view');
    await root.end();
    urls.reader = await createReaderAccount(server.url, { user: 'corpus_reader', password: 'corpus-pw', database: DATABASE, showView: false });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(registries.map((r) => r.closeAll()));
    await server?.stop();
  });

  it('the corpus covers every class of attack, and says what each entry waiting on main waits for', () => {
    const categories = new Set(CORPUS.map((s) => s.category));
    for (const c of ['comment', 'control', 'quoting', 'executable-comment', 'chaining', 'function', 'view', 'settings', 'lock', 'file', 'size', 'temp-disk'])
      expect(categories).toContain(c);
    expect(CORPUS.every((s) => s.dialect === 'mysql')).toBe(true);
    expect(CORPUS.filter((s) => s.needs).length).toBeGreaterThan(0);
  });

  /**
   * Runs `statements` as `account` and checks everything the corpus must leave as it was. The
   * session is checked after each statement, on the pooled connection the next statement gets
   * (the pool holds one): checked once at the end, it would see only the connection opened after
   * the last statement that had to be killed.
   */
  async function runUnchanged(account: Account, statements: MysqlHostileStatement[]): Promise<void> {
    const { registry, executeSql } = activity();
    const database = urls[account];
    // The account check names the view that runs a function as root (the reader cannot even read its definition).
    expect((await registry.openOrFail(database)).warnings?.join('\n')).toMatch(/hostile_corpus\.sneaky_view/);
    const session = async (run: typeof executeSql) => {
      const out = await run({ database, sql: SESSION_SQL, ...CORPUS_LIMITS });
      if (!out.ok) throw new Error(out.error.message);
      return JSON.stringify(out.result.rows);
    };
    const fresh = await session(activity().executeSql);
    const before = { server: await mysqlServerState(server.url, DATABASE), escape: readdirSync(escape) };
    const problems: string[] = [];
    for (const statement of statements) {
      problems.push(...(await runHostileCorpus(executeSql, database, [statement], { ESCAPE: escape, DATABASE })));
      const after = await session(executeSql);
      if (after !== fresh) problems.push(`${statement.sql}: the next statement's session is not a new one's: ${after.slice(0, 80)}`);
    }
    expect(problems).toEqual([]);
    expect(await mysqlServerState(server.url, DATABASE)).toBe(before.server);
    expect(readdirSync(escape)).toEqual(before.escape);
    // Whatever the server sent, nothing threw in this process: it is the worker, and it is alive.
    expect(process.kill(process.pid, 0)).toBe(true);
  }

  for (const account of ACCOUNTS) {
    it(`${account}: each statement ends with a clear error or a bounded read; the server, the files and the pooled session are unchanged`, async () => {
      expect(readdirSync(escape)).toEqual([]);
      await runUnchanged(
        account,
        CORPUS.filter((s) => !s.needs).map((s) => expectationFor(s, account)),
      );
    }, 600_000);
  }

  // Last: until main's guard work lands, these change the server as root (that is what they show;
  // as the reader, without FILE or EXECUTE, the server refuses them).
  for (const account of ACCOUNTS) {
    it(`${account}: the entries waiting on the lead's guard work (${[...new Set(CORPUS.flatMap((s) => s.needs ?? []))].join('; ')})`, async () => {
      await runUnchanged(
        account,
        CORPUS.filter((s) => s.needs).map((s) => expectationFor(s, account)),
      );
    }, 600_000);
  }
});
