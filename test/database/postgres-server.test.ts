import { Client } from 'pg';
import { describeWithPostgres } from '../support/postgres-tests';
import { findPostgresBinaries } from '../../devkit/postgres';

describeWithPostgres('the PostgreSQL test server', (server) => {
  test('answers on its port as the superuser, from the Debian packages or POSTGRES_BIN', async () => {
    const client = new Client({ connectionString: server().url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; encoding: string }>(
        "SELECT version(), pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = 'postgres'",
      );
      expect(rows[0].version).toMatch(/^PostgreSQL \d+/);
      expect(rows[0].encoding).toBe('UTF8');
    } finally {
      await client.end();
    }
  });
});

test('a missing PostgreSQL is reported with what was tried', () => {
  const found = findPostgresBinaries({ PATH: '/nonexistent', POSTGRES_BIN: '/nonexistent-either' });
  // This machine may have Debian's packages; the message matters only when it has not.
  if ('missing' in found) expect(found.missing).toMatch(/install the postgresql package/);
  else expect(found.initdb).toMatch(/initdb$/);
});
