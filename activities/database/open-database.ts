import { isMysqlUrl, isPostgresUrl } from '../../core/database-reference';
import type { MysqlDatabaseOptions } from './mysql-database';
import type { PostgresDatabaseOptions } from './postgres-database';
import { SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database';
import { sqliteFileProblem } from './sqlite-file-problem';
import type { TargetDatabase } from './target-database';

export interface OpenDatabaseOptions {
  sqlite?: SqliteDatabaseOptions;
  mysql?: MysqlDatabaseOptions;
  postgres?: PostgresDatabaseOptions;
}

/**
 * Opens a target database from a spec: a `mysql://` or `mariadb://` URL
 * (`mysql://user:pass@host:port/db`) for MySQL/MariaDB, a `postgres://` or `postgresql://` URL
 * for PostgreSQL, otherwise the path of an existing
 * SQLite file. Fails here, with a clear message, when the file is missing or not SQLite or the
 * server cannot be reached.
 */
export async function openTargetDatabase(spec: string, options: OpenDatabaseOptions = {}): Promise<TargetDatabase> {
  if (isMysqlUrl(spec)) {
    // Required here, not imported: the MySQL driver is about 15 MB of a process that may only
    // ever open SQLite files.
    const { MysqlDatabase } = require('./mysql-database') as typeof import('./mysql-database');
    return MysqlDatabase.connect(spec, options.mysql);
  }
  if (isPostgresUrl(spec)) {
    // Required here for the same reason: only a worker that opens PostgreSQL loads its driver.
    const { PostgresDatabase } = require('./postgres-database') as typeof import('./postgres-database');
    return PostgresDatabase.connect(spec, options.postgres);
  }
  assertSqliteFile(spec);
  const db = new SqliteDatabase(spec, options.sqlite);
  await db.assertReadable();
  return db;
}

function assertSqliteFile(file: string): void {
  const problem = sqliteFileProblem(file);
  if (problem) throw new Error(problem);
}
