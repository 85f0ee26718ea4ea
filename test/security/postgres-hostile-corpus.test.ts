import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { createDatabaseActivities } from '../../activities/database/database-activities';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import type { PostgresDatabase, PostgresDatabaseOptions } from '../../activities/database/postgres-database';
import { spiderDatabasePath } from '../../devkit/datasets';
import { findPostgresBinaries, startPostgres, type RunningPostgres } from '../../devkit/postgres';
import { createPostgresReader } from '../../devkit/postgres-reader';
import { dataDirectoryFiles, serverState, tableChecksums, withPostgres } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { CORPUS_LIMITS, runHostileCorpus, type HostileStatement } from './run-hostile-corpus';

/**
 * The read-only corpus on PostgreSQL (issue 24): statements specific to PostgreSQL run through
 * the executeSql activity as a workflow runs generated SQL, twice: as the superuser (so the
 * statement checks, the one-statement protocol, the read-only transactions and the bounds are the
 * only barrier, not privileges) and as a least-privilege reader (README, "A read-only PostgreSQL
 * account": SELECT on the tables, the reader settings), with a database holding a sequence and
 * functions that write (calling one is a SELECT). The corpus covers comment terminators and
 * control bytes, nested comments, quoting and escapes, chained statements, functions that run SQL
 * given as text, writes through functions, settings, locks, large objects, files and programs,
 * backend signalling, size bombs and temp-disk bombs. After each run every table's checksum, the
 * sequence, the roles and their settings, the databases, large objects, slots and locks are
 * unchanged, the server's data directory has no new file, no file appeared where a statement
 * tried to write one, every pooled session is as a fresh one is, and the worker (this process)
 * lived with its memory bounded.
 */
const CORPUS: HostileStatement[] = JSON.parse(readFileSync(path.join(__dirname, 'postgres-hostile-statements.json'), 'utf8'));
const DATABASE = 'hostile_corpus';
const READER = 'hostile_reader';
const CONNECTIONS = 4;
const OPTIONS: PostgresDatabaseOptions = { onAccountWarning: () => {}, connectionLimit: CONNECTIONS, maxResultBytes: 32 * 2 ** 20, tempFileLimitKb: 64 * 1024 };

/** What a pooled session carries from one statement to the next, read outside any transaction of decodex's. */
const SESSION_STATE =
  "SELECT current_user AS who, current_setting('work_mem') AS work_mem, current_setting('statement_timeout') AS statement_timeout, " +
  "current_setting('default_transaction_read_only') AS default_read_only, current_setting('transaction_read_only') AS read_only, " +
  "current_setting('search_path') AS search_path, current_setting('temp_file_limit') AS temp_file_limit, " +
  "current_setting('standard_conforming_strings') AS standard_strings, current_setting('TimeZone') AS time_zone, " +
  '(SELECT count(*)::int FROM pg_prepared_statements) AS prepared, (SELECT count(*)::int FROM pg_cursors) AS cursors, ' +
  '(SELECT count(*)::int FROM pg_listening_channels()) AS listening, ' +
  "(SELECT count(*)::int FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory') AS advisory_locks, " +
  'pg_my_temp_schema()::int AS temp_schema, now() = statement_timestamp() AS no_open_transaction';

describeWithPostgres('hostile PostgreSQL statements change nothing', (server) => {
  // A server of its own: other test files create databases on the shared one while this one
  // compares the server's databases and files before and after.
  let own: RunningPostgres | undefined;
  const target = () => own ?? server();
  const escape = mkdtempSync(path.join(os.tmpdir(), 'decodex-pg-escape-'));
  const opened = new Map<string, PostgresDatabase>();
  const registry = new DatabaseRegistry(async (spec) => {
    const db = await openTargetDatabase(spec, { postgres: OPTIONS });
    opened.set(spec, db as PostgresDatabase);
    return db;
  });
  const { executeSql } = createDatabaseActivities(registry);
  const urls = { superuser: '', reader: '' };

  beforeAll(async () => {
    // Writable by the server's own account: a file there could only be missing because nothing wrote it.
    chmodSync(escape, 0o777);
    const binaries = findPostgresBinaries();
    if (!('missing' in binaries)) own = await startPostgres(binaries);
    await withPostgres(target().url, async (c) => {
      await createPostgresReader(c, READER);
      // The reader settings' 1 GB of temp disk, made small for a test that fills it.
      await c.query(`ALTER ROLE ${READER} SET temp_file_limit = '64MB'`);
    });
    urls.superuser = (await loadSpiderIntoPostgres(spiderDatabasePath('concert_singer'), target().url, { database: DATABASE, reader: READER })).url;
    urls.reader = urls.superuser.replace('//postgres@', `//${READER}@`);
    await withPostgres(urls.superuser, (c) =>
      c.query(`
        CREATE SEQUENCE seq;
        CREATE FUNCTION sneaky_delete() RETURNS bigint LANGUAGE sql VOLATILE AS $$ WITH d AS (DELETE FROM singer RETURNING 1) SELECT count(*) FROM d $$;
        CREATE FUNCTION sneaky_drop() RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE 'DROP TABLE singer'; RETURN 1; END $$;
        CREATE FUNCTION sneaky_row(singer) RETURNS bigint LANGUAGE sql VOLATILE AS $$ WITH d AS (DELETE FROM singer RETURNING 1) SELECT count(*) FROM d $$;`),
    );
  }, 120_000);
  afterAll(async () => {
    await registry.closeAll();
    await own?.stop();
  });

  it('the corpus has at least 40 statements over every category the issue names', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    const text = CORPUS.map((s) => s.sql).join('\n');
    for (const needle of [
      /COPY .* PROGRAM/,
      /pg_read_file/,
      /pg_read_binary_file/,
      /pg_ls_dir/,
      /lo_import/,
      /lo_export/,
      /lo_creat\(/,
      /dblink/,
      /set_config/,
      /pg_sleep/,
      /advisory/,
      /pg_terminate_backend/,
      /pg_cancel_backend/,
      /^CREATE /m,
      /^ALTER /m,
      /^DO /m,
      /FOR UPDATE/,
      /WITH x AS \(DELETE/,
      /sneaky_delete/,
      /-- c\r; COMMIT; BEGIN READ WRITE/,
      /\f/,
      /\v/,
      /\u007f/,
      /\0/,
      /\/\* \/\*/,
      /E'/,
      /\$a\$/,
      /U&'/,
      /ts_stat/,
      /ts_rewrite/,
      /query_to_xml/,
      /xpath/,
      /repeat\('x', 600000000\)/,
      /ORDER BY md5/,
    ])
      expect(text).toMatch(needle);
  });

  it.each(['superuser', 'reader'] as const)(
    'as the %s, each statement ends with a clear error or a bounded read, and the server, the sessions and the worker are as before',
    async (account) => {
      const url = urls[account];
      const before = { tables: await tableChecksums(urls.superuser), server: await serverState(urls.superuser), files: dataDirectoryFiles(target().dataDir) };
      const sequence = () => withPostgres(urls.superuser, async (c) => (await c.query('SELECT last_value, is_called FROM seq')).rows);
      const sequenceBefore = await sequence();
      let peakRss = process.memoryUsage().rss;
      const rssBefore = peakRss;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
      let problems: string[];
      try {
        problems = await runHostileCorpus(executeSql, url, CORPUS, { ESCAPE: escape, DATABASE });
      } finally {
        clearInterval(sampler);
      }
      expect(problems).toEqual([]);
      expect(await tableChecksums(urls.superuser)).toEqual(before.tables);
      expect(await serverState(urls.superuser)).toBe(before.server);
      expect(dataDirectoryFiles(target().dataDir)).toEqual(before.files);
      expect(await sequence()).toEqual(sequenceBefore);
      expect(readdirSync(escape)).toEqual([]);
      for (const name of ['program.txt', 'program2.txt', 'cr.txt', 'out.txt', 'out2.txt', 'lo.txt']) expect(existsSync(path.join(escape, name))).toBe(false);
      // Every pooled session is as a fresh connection's: no setting, prepared statement, cursor, lock, listener or transaction left behind.
      const fresh = await openTargetDatabase(url, { postgres: OPTIONS });
      try {
        const expected = (await sessionStates(fresh as PostgresDatabase, 1))[0];
        expect(await sessionStates(opened.get(url)!, CONNECTIONS)).toEqual(Array(CONNECTIONS).fill(expected));
      } finally {
        await fresh.close();
      }
      // The worker lived through 600 MB values, its memory near its bounds, and still answers.
      expect((peakRss - rssBefore) / 2 ** 20).toBeLessThan(512);
      const after = await executeSql({ database: url, sql: 'SELECT count(*) FROM singer', ...CORPUS_LIMITS });
      expect(after).toMatchObject({ ok: true, result: { rows: [[6]] } });
    },
    900_000,
  );
});

/** The session state of `count` pooled connections of `db`, each checked out at once (so each is a different connection). */
async function sessionStates(db: PostgresDatabase, count: number): Promise<unknown[]> {
  const pool = (db as unknown as { pool: Pool }).pool;
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  try {
    return await Promise.all(clients.map(async (c) => (await c.query(SESSION_STATE)).rows[0]));
  } finally {
    for (const c of clients) c.release();
  }
}
