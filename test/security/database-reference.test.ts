import path from 'node:path';
import { DatabaseConnections } from '../../activities/database/database-connections';
import { databaseReferenceOrFail, normalizeDatabaseSpec } from '../../cli/database-reference';
import { databaseLabel } from '../../core/database-label';
import { parseMysqlUrl, parseServerUrl, redactDatabaseSpec } from '../../core/database-reference';
import { preparedDatabaseId } from '../../core/preparation/database-id';

/** Issue 12, point 1: references are normalised once, carry no password, and the worker resolves them. */
describe('database references', () => {
  const raw = 'mysql://reader:p@ss:w@rd@db.example:3307/shop';

  it('a raw @ in a password is read whole and redacted whole', () => {
    expect(parseMysqlUrl(raw)).toEqual({ user: 'reader', password: 'p@ss:w@rd', host: 'db.example', port: 3307, database: 'shop' });
    expect(redactDatabaseSpec(raw)).toBe('mysql://reader:***@db.example:3307/shop');
    expect(databaseLabel(raw)).toBe('shop');
  });

  it('the client keeps the password apart and refuses to put it into a workflow', () => {
    expect(normalizeDatabaseSpec(raw)).toEqual({ reference: 'mysql://reader@db.example:3307/shop', password: 'p@ss:w@rd' });
    expect(() => databaseReferenceOrFail(raw)).toThrow(/holds a password/);
    expect(() => databaseReferenceOrFail(raw)).not.toThrow(/p@ss/);
    expect(databaseReferenceOrFail('mariadb://reader@db.example/shop')).toBe('mysql://reader@db.example:3306/shop');
  });

  it('ask and prepare name a SQLite file the same way, wherever they run from, and the id hashes no password', () => {
    const cwd = path.join(path.sep, 'data', 'work');
    const relative = normalizeDatabaseSpec('dbs/shop.sqlite', cwd).reference;
    expect(relative).toBe(path.join(cwd, 'dbs', 'shop.sqlite'));
    expect(normalizeDatabaseSpec('../work/dbs/shop.sqlite', cwd).reference).toBe(relative);
    expect(preparedDatabaseId(normalizeDatabaseSpec(raw).reference)).toBe(
      preparedDatabaseId(normalizeDatabaseSpec('mysql://reader:other@db.example:3307/shop').reference),
    );
    expect(normalizeDatabaseSpec('shop', cwd)).toEqual({ reference: 'shop' }); // no such file: a connection name
  });

  it('the worker resolves names and passwords from its configuration, and refuses a reference with a password', () => {
    const connections = DatabaseConnections.fromConfig(
      { DECODEX_DATABASE_SALES_EU: 'mysql://sales:s@les@db:3306/sales', DECODEX_DATABASES_IGNORED: 'x' },
      { local: '/data/local.sqlite' },
    );
    expect(parseMysqlUrl(connections.resolve('sales-eu')).password).toBe('s@les');
    // Same account, another database: the account's password is known.
    expect(parseMysqlUrl(connections.resolve('mysql://sales@db:3306/archive'))).toMatchObject({ password: 's@les', database: 'archive' });
    expect(connections.resolve('local')).toBe('/data/local.sqlite');
    expect(() => connections.resolve('nowhere')).toThrow(/no database connection named "nowhere".*DECODEX_DATABASE_NOWHERE/);
    expect(() => connections.resolve(raw)).toThrow(/carries a password/);
    expect(() => connections.resolve(raw)).not.toThrow(/p@ss/);
    connections.addPassword('mysql://cli@h:3306/x', 'given');
    expect(parseMysqlUrl(connections.resolve('mysql://cli@h:3306/x')).password).toBe('given');
  });

  it('PostgreSQL URLs are references like MySQL ones: one scheme, the password kept apart, resolved per account on the worker', () => {
    const pg = 'postgresql://reader:p@ss/w%rd@pg.example:5433/shop?sslmode=disable';
    expect(parseServerUrl(pg)).toEqual({ engine: 'postgres', user: 'reader', password: 'p@ss/w%rd', host: 'pg.example', port: 5433, database: 'shop' });
    expect(redactDatabaseSpec(pg)).not.toContain('p@ss');
    expect(databaseLabel(pg)).toBe('shop');
    expect(normalizeDatabaseSpec(pg)).toEqual({ reference: 'postgres://reader@pg.example:5433/shop', password: 'p@ss/w%rd' });
    expect(normalizeDatabaseSpec('postgres://pg.example/shop').reference).toBe('postgres://postgres@pg.example:5432/shop');
    expect(() => databaseReferenceOrFail(pg)).toThrow(/holds a password/);
    expect(() => databaseReferenceOrFail(pg)).not.toThrow(/p@ss/);
    // A URL that asks for TLS is refused: its query string would be dropped and the connection made in plain text.
    expect(() => parseServerUrl('postgres://reader@pg.example/shop?sslmode=require')).toThrow(/sslmode=require in the URL is not applied.*PGSSLMODE/);
    expect(() => parseServerUrl('mysql://reader@db/shop?ssl=true')).toThrow(/ssl=true in the URL is not applied/);
    // The setting it suggests is one of the same engine.
    expect(() => databaseReferenceOrFail(pg)).toThrow(/DECODEX_DATABASE_<NAME>=postgres:\/\/user:password@/);

    const connections = DatabaseConnections.fromConfig({ DECODEX_DATABASE_WAREHOUSE: 'postgres://reader:wh@pg.example:5433/dw' });
    expect(parseServerUrl(connections.resolve('warehouse'))).toMatchObject({ engine: 'postgres', password: 'wh', database: 'dw' });
    expect(parseServerUrl(connections.resolve('postgres://reader@pg.example:5433/other')).password).toBe('wh');
    // The same user, host and port on another engine is another account.
    expect(parseServerUrl(connections.resolve('mysql://reader@pg.example:5433/dw')).password).toBe('');
    expect(() => connections.resolve('postgres://reader:wh@pg.example:5433/dw')).toThrow(/carries a password/);
    connections.addPassword('postgres://cli@h:5432/x', 'given');
    expect(parseServerUrl(connections.resolve('postgres://cli@h:5432/y')).password).toBe('given');
  });

  it('a password in a URL of any scheme is redacted', () => {
    expect(redactDatabaseSpec('mssql://sa:hunter2@db/x')).toBe('mssql://sa:***@db/x');
  });
});
