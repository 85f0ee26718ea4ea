import mysql from 'mysql2/promise';
import { testMysqlUrl } from '../../devkit/mariadb';
import { tableChecksums } from '../../devkit/postgres-state';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { describeWithPostgres } from './postgres-tests';
import { loadSpiderDatabase } from './spider-to-mysql';

/**
 * The server engines a suite runs on, side by side: how to reach the test server global-setup
 * started, load a Spider database into it, fingerprint every table's content, and what the
 * account-can-write warning of its superuser says. A suite written once over `SERVER_ENGINES`
 * runs on each, so the engines cannot drift apart.
 */
export interface ServerEngine {
  name: string;
  /** The target database's dialect (what its content fingerprints start with). */
  dialect: 'mysql' | 'postgres';
  /** A Spider identifier as the loader names it on this server (PostgreSQL's copies are lower-cased). */
  identifier: (name: string) => string;
  /** `describe` when the engine's test server runs (else skipped, or failed under CI=true, saying why). */
  describe: (title: string, body: () => void) => void;
  /** Copies the Spider SQLite file into a database of the server; its URL. */
  loadSpider: (sqlitePath: string, database: string) => Promise<string>;
  /** A fingerprint of every table's content. */
  checksum: (url: string) => Promise<unknown>;
  /** The warning decodex gives for the test server's superuser. */
  writerWarning: RegExp;
}

async function mysqlChecksum(url: string): Promise<unknown> {
  const connection = await mysql.createConnection(url);
  try {
    const [tables] = await connection.query<mysql.RowDataPacket[]>('SHOW TABLES');
    const names = tables.map((t) => String(Object.values(t)[0])).sort();
    const [sums] = await connection.query<mysql.RowDataPacket[]>(`CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(', ')}`);
    return sums;
  } finally {
    await connection.end();
  }
}

let postgresUrl = '';

export const SERVER_ENGINES: ServerEngine[] = [
  {
    name: 'MariaDB',
    dialect: 'mysql',
    identifier: (name) => name,
    // global-setup always starts MariaDB (or fails saying why).
    describe: (title, body) => describe(title, body),
    loadSpider: async (file, database) => (await loadSpiderDatabase(file, testMysqlUrl(), { database })).url,
    checksum: mysqlChecksum,
    writerWarning: /warning: the account root@\S+ of mysql:\/\/root@.* can write \(ALL PRIVILEGES/,
  },
  {
    name: 'PostgreSQL',
    dialect: 'postgres',
    identifier: (name) => name.toLowerCase(),
    describe: (title, body) =>
      describeWithPostgres(title, (server) => {
        beforeAll(() => {
          postgresUrl = server().url;
        });
        body();
      }),
    loadSpider: async (file, database) => (await loadSpiderIntoPostgres(file, postgresUrl, { database })).url,
    checksum: tableChecksums,
    writerWarning: /warning: the account postgres of postgres:\/\/postgres@.* can write \(SUPERUSER/,
  },
];
