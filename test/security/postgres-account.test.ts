import { DatabaseConnections } from '../../activities/database/database-connections';
import { PostgresDatabase } from '../../activities/database/postgres-database';
import { PASSWORD_ROLE } from '../../devkit/postgres';
import { POSTGRES_READER_SETTINGS, createPostgresReader } from '../../devkit/postgres-reader';
import { withPostgres } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';

/**
 * The account below the guard (issue 24): a PostgreSQL account that can write is named with what
 * it may do, warned about or (DECODEX_POSTGRES_ACCOUNT=require) refused, never with its password;
 * a SELECT-only account opens quietly. temp_file_limit is set where the account may set it, and
 * where it may not, the database says so.
 */
describeWithPostgres('the PostgreSQL account check', (server) => {
  const database = `account_${process.pid}`;
  const urlAs = (user: string) =>
    server()
      .url.replace(/\/\/postgres@/, `//${user}:s3cr%40t@`)
      .replace(/\/postgres$/, `/${database}`);

  const dropAll = () =>
    withPostgres(server().url, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      // A role granted SET on a parameter cannot be dropped before the grant is.
      await c.query(
        "DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'decodex_tuned') THEN REVOKE SET ON PARAMETER temp_file_limit FROM decodex_tuned; END IF; END $$",
      );
      for (const role of ['decodex_reader', 'decodex_writer', 'decodex_tuned', 'decodex_files', 'decodex_programs', 'decodex_settled'])
        await c.query(`DROP ROLE IF EXISTS ${role}`);
    });

  beforeAll(async () => {
    await dropAll();
    await withPostgres(server().url, async (c) => {
      await c.query(`CREATE DATABASE ${database}`);
      await c.query('CREATE ROLE decodex_reader LOGIN; CREATE ROLE decodex_writer LOGIN; CREATE ROLE decodex_tuned LOGIN');
      await c.query('GRANT SET ON PARAMETER temp_file_limit TO decodex_tuned');
      // Reads the server's files; and a NOINHERIT member of the role that runs programs, which it may still SET ROLE to.
      await c.query(
        'CREATE ROLE decodex_files LOGIN IN ROLE pg_read_server_files; CREATE ROLE decodex_programs LOGIN NOINHERIT IN ROLE pg_execute_server_program',
      );
      await createPostgresReader(c, 'decodex_settled');
    });
    await withPostgres(server().url.replace(/\/postgres$/, `/${database}`), (c) =>
      c.query(`
        CREATE SCHEMA shop; CREATE TABLE shop.orders (id int PRIMARY KEY); CREATE TABLE open_notes (id int);
        GRANT USAGE ON SCHEMA shop TO decodex_reader, decodex_writer, decodex_tuned, decodex_files, decodex_programs, decodex_settled;
        GRANT SELECT ON ALL TABLES IN SCHEMA shop, public TO decodex_reader, decodex_writer, decodex_tuned, decodex_files, decodex_programs, decodex_settled;
        GRANT INSERT, DELETE ON shop.orders TO decodex_writer;`),
    );
  });
  afterAll(() => dropAll());

  test('a SELECT-only account opens, also under require, and is told temp disk is bounded only by the server', async () => {
    const warned: string[] = [];
    const db = await PostgresDatabase.connect(urlAs('decodex_reader'), { readOnlyAccount: 'require', onAccountWarning: (m) => warned.push(m) });
    try {
      expect(db.accountCanWrite).toEqual([]);
      expect(warned).toEqual([]);
      expect(db.warnings.join('\n')).toMatch(/may not set temp_file_limit.*GRANT SET ON PARAMETER temp_file_limit/);
      expect((await db.schema()).tables.map((t) => t.name)).toEqual(['open_notes', 'orders']);
      expect((await db.execute('SELECT count(*) FROM orders', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[0]]);
    } finally {
      await db.close();
    }
  });

  test('an account granted SET on temp_file_limit gets it in every transaction', async () => {
    const db = await PostgresDatabase.connect(urlAs('decodex_tuned'), { tempFileLimitKb: 2048, onAccountWarning: () => {} });
    try {
      expect(db.warnings).toEqual([]);
      // current_setting is off the allowlist of generated SQL: asked on decodex's own path, in the same transaction settings.
      const internalQuery = (db as unknown as { internalQuery(sql: string): Promise<unknown[][]> }).internalQuery.bind(db);
      expect(await internalQuery("SELECT current_setting('temp_file_limit')")).toEqual([['2MB']]);
      // A sort that spills more than 2 MB to disk is stopped by the limit.
      const spill = await db
        .execute('SELECT g FROM generate_series(1, 3000000) g ORDER BY md5(g::text) LIMIT 1', { timeoutMs: 20_000, maxRows: 1 })
        .catch((e: Error) => e);
      expect(String(spill)).toMatch(/temp_file_limit/);
    } finally {
      await db.close();
    }
  });

  test('a password reaches the server from the worker configuration, and a wrong one is refused without appearing anywhere', async () => {
    const password = 'p@ss:w0rd/with%signs';
    await withPostgres(server().url, async (c) => {
      await c.query(`DROP ROLE IF EXISTS ${PASSWORD_ROLE}`);
      await c.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
    });
    try {
      const reference = urlAs(PASSWORD_ROLE).replace(/:s3cr%40t@/, '@');
      const connections = DatabaseConnections.fromConfig({ DECODEX_DATABASE_SHOP: reference.replace('@', `:${encodeURIComponent(password)}@`) });
      const db = await PostgresDatabase.connect(connections.resolve('shop'), { onAccountWarning: () => {} });
      expect((await db.execute('SELECT current_user', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[PASSWORD_ROLE]]);
      await db.close();
      // Without the configured password the reference alone cannot log in; with a wrong one, the message holds neither.
      expect(String(await PostgresDatabase.connect(reference).catch((e: Error) => e))).toMatch(/cannot connect to .*password/);
      const wrong = await PostgresDatabase.connect(reference.replace('@', ':wrong%40secret@')).catch((e: Error) => e);
      expect(String(wrong)).toMatch(/password authentication failed/);
      expect(String(wrong)).not.toMatch(/wrong|secret|p@ss/);
    } finally {
      await withPostgres(server().url, (c) => c.query(`DROP OWNED BY ${PASSWORD_ROLE}; DROP ROLE ${PASSWORD_ROLE}`));
    }
  });

  test('an account that can write is named with its privileges: warned, or refused under require, never with its password', async () => {
    const warned: string[] = [];
    const db = await PostgresDatabase.connect(urlAs('decodex_writer'), { onAccountWarning: (m) => warned.push(m) });
    await db.close();
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/decodex_writer .* can write \(.*(INSERT, DELETE|DELETE, INSERT).*\).*A read-only PostgreSQL account/);
    const refused = await PostgresDatabase.connect(urlAs('decodex_writer'), { readOnlyAccount: 'require' }).catch((e: Error) => e);
    expect(String(refused)).toMatch(/refused because DECODEX_POSTGRES_ACCOUNT=require/);
    expect(String(refused)).not.toMatch(/s3cr/);
    const superuser = await PostgresDatabase.connect(server().url, { readOnlyAccount: 'require' }).catch((e: Error) => e);
    expect(String(superuser)).toMatch(/SUPERUSER/);
  });

  test('an account that can read the server files or run programs there is named with it: warned, or refused under require', async () => {
    for (const [role, named] of [
      ['decodex_files', /member of pg_read_server_files \(reads any file the server can\)/],
      ['decodex_programs', /member of pg_execute_server_program \(runs programs on the server\)/],
    ] as const) {
      const warned: string[] = [];
      const db = await PostgresDatabase.connect(urlAs(role), { onAccountWarning: (m) => warned.push(m) });
      await db.close();
      expect([role, warned.join('\n')]).toEqual([role, expect.stringMatching(named)]);
      const refused = await PostgresDatabase.connect(urlAs(role), { readOnlyAccount: 'require' }).catch((e: Error) => e);
      expect([role, String(refused)]).toEqual([role, expect.stringMatching(/refused because DECODEX_POSTGRES_ACCOUNT=require/)]);
    }
  });

  test("a reader set up as the README says starts every session read-only, with a statement timeout and a temp disk limit, decodex's or not", async () => {
    const expected = Object.entries(POSTGRES_READER_SETTINGS).map(([name, value]) => `${name}=${value}`);
    const roleSettings = await withPostgres(
      server().url,
      async (c) => (await c.query("SELECT setconfig FROM pg_db_role_setting WHERE setrole = 'decodex_settled'::regrole AND setdatabase = 0")).rows[0].setconfig,
    );
    expect([...roleSettings].sort()).toEqual(expected.sort());
    // A session of the role that is not decodex's.
    const shown = await withPostgres(
      urlAs('decodex_settled').replace(/:s3cr%40t@/, '@'),
      async (c) => (await c.query("SELECT current_setting('default_transaction_read_only') AS ro, current_setting('temp_file_limit') AS t")).rows[0],
    );
    expect(shown).toEqual({ ro: 'on', t: POSTGRES_READER_SETTINGS.temp_file_limit });
    // decodex's: it may not set temp_file_limit itself, and the role's limit is what bounds the temp disk; it says so.
    const warned: string[] = [];
    const db = await PostgresDatabase.connect(urlAs('decodex_settled'), { readOnlyAccount: 'require', onAccountWarning: (m) => warned.push(m) });
    try {
      expect(warned).toEqual([]);
      expect(db.warnings.join('\n')).toMatch(/bounded only by the server's own temp_file_limit \(1GB\)/);
      const spill = await db.execute('SELECT g FROM generate_series(1, 3000000) g ORDER BY md5(g::text) LIMIT 1', { timeoutMs: 60_000, maxRows: 1 }).then(
        () => 'ran',
        (e: Error) => e.message,
      );
      expect(spill).toBe('ran'); // 1 GB is room enough for a sort of 3 million rows
    } finally {
      await db.close();
    }
  });
});
