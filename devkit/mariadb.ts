import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from './free-port';
import { ownServerProcess } from './stop-process';

export interface RunningMariaDb {
  /** `mysql://root@127.0.0.1:PORT/`: no database; add one to the path. */
  url: string;
  /** The server's data directory, when it runs on this machine (started here). */
  dataDir?: string;
  stop(): Promise<void>;
}

export interface MariaDbOptions {
  /**
   * A server of its own even when DECODEX_TEST_MYSQL_URL names a shared one: for a test that
   * changes server-wide settings or compares the server's files, which other test files running
   * at the same time would disturb or be disturbed by.
   */
  own?: boolean;
  /** More mariadbd options, e.g. `--max-allowed-packet=1G`. */
  serverOptions?: string[];
}

/**
 * A MariaDB server for tests: the one named by DECODEX_TEST_MYSQL_URL when set (then `stop` does
 * nothing), otherwise a throw-away server from the Debian packages: a fresh data directory in
 * a temp dir, passwordless root on 127.0.0.1, a free port. Table names are case-insensitive
 * (lower_case_table_names=1) as SQLite's are, so Spider SQL that spells a table in another case
 * still runs.
 */
export async function startMariaDb(options: MariaDbOptions = {}): Promise<RunningMariaDb> {
  const external = process.env.DECODEX_TEST_MYSQL_URL;
  if (external && !options.own) return { url: external, stop: async () => {} };

  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-mariadb-'));
  const dataDir = path.join(dir, 'data');
  const errorLog = path.join(dir, 'error.log');
  const serverOptions = ['--lower-case-table-names=1', '--innodb-log-file-size=16M'];
  const install = spawnSync(
    findProgram('mariadb-install-db', ['/usr/bin', '/usr/local/bin', '/usr/local/mysql/scripts']),
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
      ...serverOptions,
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed (${install.status}): ${install.stderr || install.stdout}`);
  }

  const port = await freePort();
  const server = spawn(
    findProgram('mariadbd', ['/usr/sbin', '/usr/bin', '/usr/local/bin']),
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--user=root',
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-networking=0',
      `--socket=${path.join(dir, 'mariadb.sock')}`,
      `--pid-file=${path.join(dir, 'mariadb.pid')}`,
      `--log-error=${errorLog}`,
      '--skip-log-bin',
      '--character-set-server=utf8mb4',
      // A test server: durability is not worth the fsyncs.
      '--innodb-flush-log-at-trx-commit=0',
      '--innodb-doublewrite=0',
      '--innodb-buffer-pool-size=128M',
      ...serverOptions,
      ...(options.serverOptions ?? []),
    ],
    { stdio: 'ignore' },
  );
  const url = `mysql://root@127.0.0.1:${port}/`;
  const { stop } = await ownServerProcess(server, dir, () => waitUntilAnswering(server, port, errorLog));
  return { url, dataDir, stop };
}

function findProgram(name: string, dirs: string[]): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...dirs]) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found; install the mariadb-server package or set DECODEX_TEST_MYSQL_URL`);
}

async function waitUntilAnswering(server: ChildProcess, port: number, errorLog: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  server.once('exit', () => (exited = true));
  for (;;) {
    try {
      const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
      await conn.query('SELECT 1');
      await conn.end();
      return;
    } catch (err) {
      if (exited || Date.now() > deadline) {
        const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8').slice(-2000) : '(no error log)';
        throw new Error(`MariaDB did not start (${exited ? 'it exited' : (err as Error).message}):\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * The MariaDB server of this test run. global-setup always starts one (or uses
 * DECODEX_TEST_MYSQL_URL) and fails the run when it cannot, so a MySQL test never skips silently.
 */
export function testMysqlUrl(): string {
  const url = process.env.DECODEX_TEST_MYSQL_URL;
  if (!url) throw new Error('no MariaDB for this test: run the tests through jest (global-setup starts one) or set DECODEX_TEST_MYSQL_URL');
  return url;
}

export interface TestDatabase {
  name: string;
  /** The test server's URL with this database in its path. */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the test server (e.g. for a MySQL artifact store), dropped by `drop`. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const serverUrl = testMysqlUrl();
  const name = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const connection = await mysql.createConnection(serverUrl);
  await connection.query(`CREATE DATABASE ${name}`);
  await connection.end();
  return {
    name,
    url: new URL(name, serverUrl).toString(),
    async drop() {
      const c = await mysql.createConnection(serverUrl);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}
