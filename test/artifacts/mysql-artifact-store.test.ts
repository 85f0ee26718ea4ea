import mysql from 'mysql2/promise';
import { artifactStoreFromEnv } from '../../activities/artifacts/artifact-store-from-env';
import { openMysqlArtifactStore } from '../../activities/artifacts/mysql-artifact-store';
import { createTestDatabase, testMysqlUrl } from '../../devkit/mariadb';
import { describeArtifactStoreContract } from './artifact-store.contract';

const serverUrl = testMysqlUrl();
const root = () => mysql.createConnection(serverUrl);
const freshDatabase = () => createTestDatabase('artifacts');

describeArtifactStoreContract('MariaDB', async () => {
  const db = await freshDatabase();
  return { open: () => openMysqlArtifactStore(db.url), dispose: () => db.drop() };
});

describe('MySQL artifact store specifics', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(() => db.drop());

  it('refuses a value over the server max_allowed_packet, naming the setting, and stores nothing', async () => {
    const store = await openMysqlArtifactStore(db.url);
    const c = await root();
    const [[{ packet }]] = (await c.query('SELECT @@max_allowed_packet AS packet')) as unknown as [[{ packet: number }]];
    await c.end();
    await expect(store.put('dag-result', 'too-big', 'x'.repeat(Number(packet)))).rejects.toThrow(
      /over the MySQL server's max_allowed_packet .*raise max_allowed_packet/,
    );
    expect(await store.has('dag-result', 'too-big')).toBe(false);
    await store.close();
  });

  it('refuses keys longer than its primary key allows instead of truncating them', async () => {
    const store = await openMysqlArtifactStore(db.url);
    await expect(store.put('k', 'x'.repeat(1025), 1)).rejects.toThrow(/key is over 1024 bytes/);
    await store.close();
  });

  it('takes the password from DECODEX_ARTIFACTS_PASSWORD and never prints it', async () => {
    const secret = 'S3cret-artifacts-pw';
    const user = `art_${Math.random().toString(36).slice(2, 8)}`;
    const c = await root();
    await c.query(`CREATE USER '${user}'@'%' IDENTIFIED BY '${secret}'`);
    await c.query(`GRANT ALL ON ${db.name}.* TO '${user}'@'%'`);
    await c.end();
    try {
      const base = new URL(db.url);
      base.username = user;
      const store = await artifactStoreFromEnv('/nonexistent', { DECODEX_ARTIFACTS_URL: base.toString(), DECODEX_ARTIFACTS_PASSWORD: secret });
      await store.put('notes', 'a', 1);
      expect(await store.get('notes', 'a')).toBe(1);
      await store.close();

      // A wrong database in a URL that carries the password: the error names the server, not the secret.
      base.password = secret;
      base.pathname = '/no_such_database';
      const failure = await artifactStoreFromEnv('/nonexistent', { DECODEX_ARTIFACTS_URL: base.toString() }).catch((e: Error) => e);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/cannot open the artifact store at mysql:\/\/art_\w+:\*\*\*@/);
      expect((failure as Error).message).not.toContain(secret);
    } finally {
      const d = await root();
      await d.query(`DROP USER '${user}'@'%'`);
      await d.end();
    }
  });

  it('rejects artifact settings that would do nothing', async () => {
    await expect(artifactStoreFromEnv('/tmp', { DECODEX_ARTIFACTS_PASSWORD: 'x' })).rejects.toThrow(/DECODEX_ARTIFACTS_URL is not/);
    await expect(artifactStoreFromEnv('/tmp', { DECODEX_ARTIFACTS_URL: 'postgres://h/db' })).rejects.toThrow(/must be a mysql:\/\//);
  });
});
