import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseMysqlUrl } from '../../activities/database/mysql-connection-url';
import { redactDatabaseSpec } from '../../core/database-reference';
import { isMissingDatabase } from '../../activities/database/missing-database';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { sharedSqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { describeWithPostgres } from '../support/postgres-tests';
import { spiderDbPath, removeTempDirs, tempDir } from './spider-files';

afterAll(async () => {
  await sharedSqliteProcessPool().close();
  removeTempDirs();
});

test('a path opens SQLite, named after the file', async () => {
  const db = await openTargetDatabase(spiderDbPath('pets_1'));
  expect(db.dialect).toBe('sqlite');
  expect(db.name).toBe('pets_1');
  expect((await db.execute('SELECT count(*) FROM Pets', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[3]]);
  await db.close();
  await expect(db.execute('SELECT 1', { timeoutMs: 5000, maxRows: 1 })).rejects.toThrow(/closed/);
});

test('a missing file, a directory, an empty file and a non-SQLite file are refused clearly', async () => {
  const dir = tempDir('open');
  await expect(openTargetDatabase(path.join(dir, 'missing.sqlite'))).rejects.toThrow(/no SQLite database at .*missing\.sqlite/);
  await expect(openTargetDatabase(dir)).rejects.toThrow(/is not a file/);
  writeFileSync(path.join(dir, 'empty.sqlite'), '');
  await expect(openTargetDatabase(path.join(dir, 'empty.sqlite'))).rejects.toThrow(/is not a SQLite database/);
  writeFileSync(path.join(dir, 'notes.txt'), 'SELECT 1; -- hello, this is not a database');
  await expect(openTargetDatabase(path.join(dir, 'notes.txt'))).rejects.toThrow(/is not a SQLite database/);
});

test("a file with SQLite's header but no database behind it fails to open, at once and for good", async () => {
  const file = path.join(tempDir('corrupt'), 'corrupt.sqlite');
  writeFileSync(file, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096, 0xff)]));
  await expect(openTargetDatabase(file)).rejects.toThrow(/corrupt\.sqlite is not a readable SQLite database: .*(not a database|malformed)/);
  // Activities open through the registry: the failure is non-retryable, so a run fails in one attempt.
  const registry = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  await expect(registry.openOrFail(file)).rejects.toMatchObject({ type: 'DatabaseUnavailable', nonRetryable: true });
});

test('MySQL URLs: parsed, both schemes, password never shown', async () => {
  expect(parseMysqlUrl('mysql://reader:s%40cret@db.example:3307/shop')).toEqual({
    host: 'db.example',
    port: 3307,
    user: 'reader',
    password: 's@cret',
    database: 'shop',
  });
  expect(parseMysqlUrl('mariadb://127.0.0.1/x')).toMatchObject({ host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'x' });
  expect(() => parseMysqlUrl('mysql://root@127.0.0.1:3306/')).toThrow(/names no database/);
  expect(redactDatabaseSpec('mysql://u:topsecret@h/db')).toBe('mysql://u:***@h/db');
  // Nothing listens on port 1: the error says where, without the password.
  const failure = await openTargetDatabase('mysql://u:topsecret@127.0.0.1:1/db').catch((e: Error) => e);
  expect(failure).toBeInstanceOf(Error);
  expect((failure as Error).message).toMatch(/cannot connect to mysql:\/\/u:\*\*\*@127\.0\.0\.1:1\/db/);
  expect((failure as Error).message).not.toMatch(/topsecret/);
});

/** Opens a database the server lacks, then a server that is not there (port 1): only the first is a missing database. */
async function expectMissingToldFromDown(serverUrl: string): Promise<void> {
  const at = (changes: Partial<URL>) => Object.assign(new URL(serverUrl), changes).toString();
  const failureOf = (spec: string) =>
    openTargetDatabase(spec, { mysql: { onAccountWarning: () => {} }, postgres: { onAccountWarning: () => {} } }).catch((e: Error) => e);
  const missing = await failureOf(at({ pathname: '/decodex_no_such_database' }));
  expect(missing).toBeInstanceOf(Error);
  expect(isMissingDatabase(missing)).toBe(true);
  const down = await failureOf(at({ port: '1', pathname: '/decodex_no_such_database' }));
  expect(down).toBeInstanceOf(Error);
  expect(isMissingDatabase(down)).toBe(false);
}

test('MariaDB: a server without the database is told apart from one that is down', () => expectMissingToldFromDown(process.env.DECODEX_TEST_MYSQL_URL!));

describeWithPostgres('PostgreSQL: a server without the database', (server) => {
  test('is told apart from one that is down', () => expectMissingToldFromDown(server().url));
});
