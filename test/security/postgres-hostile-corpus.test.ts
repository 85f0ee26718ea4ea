import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabaseActivities } from '../../activities/database/database-activities';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { spiderDatabasePath } from '../../devkit/datasets';
import { findPostgresBinaries, startPostgres, type RunningPostgres } from '../../devkit/postgres';
import { dataDirectoryFiles, serverState, tableChecksums, withPostgres } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { runHostileCorpus, type HostileStatement } from './run-hostile-corpus';

/**
 * The read-only corpus on PostgreSQL (issue 24): statements specific to PostgreSQL run through
 * the executeSql activity as a workflow runs generated SQL, as the superuser (so the statement
 * guard and the read-only transactions are the only barrier, not privileges), with a database
 * holding a sequence and two functions that write (calling one is a SELECT). Afterwards every
 * table's checksum, the sequence, the roles, the settings, the databases, large objects, slots
 * and locks are unchanged, the server's data directory has no new file, and no file appeared
 * where a statement tried to write one (a folder the server's account may write to).
 */
const CORPUS: HostileStatement[] = JSON.parse(readFileSync(path.join(__dirname, 'postgres-hostile-statements.json'), 'utf8'));
const DATABASE = 'hostile_corpus';

describeWithPostgres('hostile PostgreSQL statements change nothing', (server) => {
  // A server of its own: other test files create databases on the shared one while this one
  // compares the server's databases and files before and after.
  let own: RunningPostgres | undefined;
  const target = () => own ?? server();
  const escape = mkdtempSync(path.join(os.tmpdir(), 'decodex-pg-escape-'));
  const registry = new DatabaseRegistry((spec) => openTargetDatabase(spec, { postgres: { onAccountWarning: () => {} } }));
  const { executeSql } = createDatabaseActivities(registry);
  let url: string;

  beforeAll(async () => {
    // Writable by the server's own account: a file there could only be missing because nothing wrote it.
    chmodSync(escape, 0o777);
    const binaries = findPostgresBinaries();
    if (!('missing' in binaries)) own = await startPostgres(binaries);
    url = (await loadSpiderIntoPostgres(spiderDatabasePath('concert_singer'), target().url, { database: DATABASE })).url;
    await withPostgres(url, (c) =>
      c.query(`
        CREATE SEQUENCE seq;
        CREATE FUNCTION sneaky_delete() RETURNS bigint LANGUAGE sql VOLATILE AS $$ WITH d AS (DELETE FROM singer RETURNING 1) SELECT count(*) FROM d $$;
        CREATE FUNCTION sneaky_drop() RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE 'DROP TABLE singer'; RETURN 1; END $$;`),
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
      /dblink/,
      /set_config/,
      /pg_sleep/,
      /advisory/,
      /pg_terminate_backend/,
      /^CREATE /m,
      /^ALTER /m,
      /^DO /m,
      /FOR UPDATE/,
      /WITH x AS \(DELETE/,
      /sneaky_delete/,
    ])
      expect(text).toMatch(needle);
  });

  it('each statement ends with a clear error or a bounded read, and the server is unchanged', async () => {
    const before = { tables: await tableChecksums(url), server: await serverState(url), files: dataDirectoryFiles(target().dataDir) };
    const sequence = () => withPostgres(url, async (c) => (await c.query('SELECT last_value, is_called FROM seq')).rows);
    const sequenceBefore = await sequence();
    const problems = await runHostileCorpus(executeSql, url, CORPUS, { ESCAPE: escape, DATABASE });
    expect(problems).toEqual([]);
    expect(await tableChecksums(url)).toEqual(before.tables);
    expect(await serverState(url)).toBe(before.server);
    expect(dataDirectoryFiles(target().dataDir)).toEqual(before.files);
    expect(await sequence()).toEqual(sequenceBefore);
    expect(readdirSync(escape)).toEqual([]);
    for (const name of ['program.txt', 'out.txt', 'out2.txt', 'lo.txt']) expect(existsSync(path.join(escape, name))).toBe(false);
  }, 300_000);
});
