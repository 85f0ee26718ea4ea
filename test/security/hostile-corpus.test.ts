import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { createDatabaseActivities } from '../../activities/database/database-activities';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { sharedSqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { spiderDatabasePath } from '../../devkit/datasets';
import { testMysqlUrl } from '../../devkit/mariadb';
import { loadSpiderDatabase } from '../support/spider-to-mysql';
import { runHostileCorpus, type HostileStatement } from './run-hostile-corpus';

/**
 * The read-only corpus (issue 12): hostile statements (hostile-statements.json) run through the
 * executeSql activity exactly as a workflow runs generated SQL, on a SQLite file and on MariaDB as
 * root (so the statement guard and read-only sessions are the only barrier, not grants). Each ends
 * with a clear error (`refused`), a bounded harmless read (`bounded`), or either (`either`:
 * runaway and giant queries, bounded by time, rows and bytes). Afterwards the SQLite file is
 * byte-identical (SHA-256), the MariaDB data checksum-identical (tables, the sequence, users,
 * databases, server variables, the files of its data folder), and no file appeared where a
 * statement tried to write one (absolute and relative paths).
 */
const CORPUS: HostileStatement[] = JSON.parse(readFileSync(path.join(__dirname, 'hostile-statements.json'), 'utf8'));
const DATABASE = 'hostile_corpus';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function mysqlState(url: string): Promise<string> {
  const conn = await mysql.createConnection(url);
  try {
    const [tables] = await conn.query<mysql.RowDataPacket[]>(
      `SELECT table_name AS t, table_type AS k FROM information_schema.tables WHERE table_schema = ? ORDER BY 1`,
      [DATABASE],
    );
    const base = tables.filter((t) => t.k === 'BASE TABLE').map((t) => `\`${t.t}\``);
    const [sums] = await conn.query(`CHECKSUM TABLE ${base.join(', ')} EXTENDED`);
    const [sequence] = await conn.query('SELECT next_not_cached_value FROM seq');
    // The server is shared with test files running at the same time (which create their own users
    // and databases): the accounts and databases the corpus could create, drop or change are compared.
    const [users] = await conn.query("SELECT user, host FROM mysql.user WHERE user IN ('root', 'evil', 'mariadb.sys') ORDER BY 1, 2");
    const [databases] = await conn.query('SHOW DATABASES WHERE `Database` IN (?, ?)', [DATABASE, 'evil_db']);
    // A relative OUTFILE path lands in the database's folder of the server's data directory.
    const [[{ dir }]] = await conn.query<mysql.RowDataPacket[]>('SELECT @@datadir AS dir');
    const files = existsSync(path.join(dir, DATABASE)) ? readdirSync(path.join(dir, DATABASE)).sort() : 'no local data directory';
    const [globals] = await conn.query(
      "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('max_connections', 'general_log', 'sql_mode', 'read_only', 'local_infile', 'max_allowed_packet')",
    );
    return JSON.stringify({ tables, sums, sequence, users, databases, files, globals });
  } finally {
    await conn.end();
  }
}

describe('hostile statements change nothing', () => {
  const escape = mkdtempSync(path.join(os.tmpdir(), 'decodex-escape-'));
  const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-corpus-'));
  const sqliteFile = path.join(sqliteDir, 'concert_singer.sqlite');
  const registry = new DatabaseRegistry((spec) => openTargetDatabase(spec, { mysql: { onAccountWarning: () => {} } }));
  const { executeSql } = createDatabaseActivities(registry);
  let mysqlUrl: string;
  const repoRoot = path.resolve(__dirname, '../..');
  let repoFiles: string[];

  beforeAll(async () => {
    copyFileSync(spiderDatabasePath('concert_singer'), sqliteFile);
    const loaded = await loadSpiderDatabase(spiderDatabasePath('concert_singer'), testMysqlUrl(), { database: DATABASE });
    mysqlUrl = loaded.url;
    const conn = await mysql.createConnection(mysqlUrl);
    await conn.query('CREATE SEQUENCE seq');
    await conn.end();
    repoFiles = readdirSync(repoRoot).sort();
  }, 120_000);
  afterAll(async () => {
    await registry.closeAll();
    await sharedSqliteProcessPool().close();
  });

  it('the corpus has at least 60 statements over both engines and every category the issue names', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(CORPUS.filter((s) => s.dialect === 'sqlite').length).toBeGreaterThanOrEqual(30);
    expect(CORPUS.filter((s) => s.dialect === 'mysql').length).toBeGreaterThanOrEqual(30);
    const categories = new Set(CORPUS.map((s) => s.category));
    for (const c of [
      'dml',
      'ddl',
      'attach',
      'vacuum',
      'pragma',
      'extension',
      'multiple',
      'file',
      'server',
      'users',
      'lock',
      'sequence',
      'recursion',
      'cartesian',
      'giant',
      'sleep',
    ]) {
      expect(categories).toContain(c);
    }
  });

  for (const dialect of ['sqlite', 'mysql'] as const) {
    it(`${dialect}: each statement ends with a clear error or a bounded read, and the database is unchanged`, async () => {
      const database = dialect === 'sqlite' ? sqliteFile : mysqlUrl;
      const before = dialect === 'sqlite' ? sha256(sqliteFile) : await mysqlState(mysqlUrl);
      const statements = CORPUS.filter((s) => s.dialect === dialect);
      const problems = await runHostileCorpus(executeSql, database, statements, { ESCAPE: escape, DATABASE });
      expect(problems).toEqual([]);
      expect(dialect === 'sqlite' ? sha256(sqliteFile) : await mysqlState(mysqlUrl)).toBe(before);
      expect(readdirSync(escape)).toEqual([]);
      expect(readdirSync(sqliteDir)).toEqual(['concert_singer.sqlite']);
      expect(readdirSync(repoRoot).sort()).toEqual(repoFiles);
    }, 300_000);
  }

  it('no statement left a file where it tried to write one', () => {
    for (const name of ['attached.sqlite', 'copy.sqlite', 'written.txt', 'out.txt', 'out2.txt', 'dump.bin'])
      expect(existsSync(path.join(escape, name))).toBe(false);
  });
});
