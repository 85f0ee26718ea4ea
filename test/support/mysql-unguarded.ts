import type { MysqlDatabase } from '../../activities/database/mysql-database';
import type { SqlWithParams } from '../../activities/database/named-relations';
import type { ExecuteOptions, StatementRows } from '../../activities/database/target-database';

/**
 * Runs `sql` on `db` as `execute` does once the statement guard has let it through (its private
 * `run`): for tests of what the layers below the guard do with SQL the guard should have refused,
 * so each layer is shown to hold on its own. Tests only.
 */
export function runUnguarded(db: MysqlDatabase, sql: string, limits: ExecuteOptions): Promise<StatementRows> {
  const below = db as unknown as { run(statement: SqlWithParams, limits: ExecuteOptions): Promise<StatementRows> };
  return below.run({ sql, params: [] }, limits);
}
