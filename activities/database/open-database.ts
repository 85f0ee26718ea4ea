import { isMysqlUrl } from './mysql-connection-url';
import type { MysqlDatabaseOptions } from './mysql-database';
import { SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database';
import { sqliteFileProblem } from './sqlite-file-problem';
import type { TargetDatabase } from './target-database';

export interface OpenDatabaseOptions {
  sqlite?: SqliteDatabaseOptions;
  mysql?: MysqlDatabaseOptions;
}

/**
 * Opens a target database from a spec: a `mysql://` or `mariadb://` URL
 * (`mysql://user:pass@host:port/db`) for MySQL/MariaDB, otherwise the path of an existing
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
  assertSqliteFile(spec);
  return new SqliteDatabase(spec, options.sqlite);
}

function assertSqliteFile(file: string): void {
  const problem = sqliteFileProblem(file);
  if (problem) throw new Error(problem);
}
