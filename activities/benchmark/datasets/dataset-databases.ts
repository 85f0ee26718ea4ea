import path from 'node:path';
import { isServerUrl, parseServerUrl, redactDatabaseSpec } from '../../../core/database-reference';
import { normalizeDatabaseSpec } from '../../database/normalize-database-spec';

/** What a server URL given as a named dataset's databases holds where each question's db_id goes. */
export const DB_ID_PLACEHOLDER = '{db_id}';

/**
 * Where a named dataset (Spider, BIRD) keeps the database `dbId`: under a folder in the datasets'
 * own layout, `<folder>/<db_id>/<db_id>.sqlite`, or, for copies of them on a server (one database
 * per db_id), the server URL with its `{db_id}` replaced: `postgres://reader@db:5432/{db_id}`.
 */
export function datasetDatabase(databases: string, dbId: string): string {
  if (!isServerUrl(databases)) return path.join(databases, dbId, `${dbId}.sqlite`);
  return normalizeDatabaseSpec(databases.split(DB_ID_PLACEHOLDER).join(dbId)).reference;
}

/**
 * Why `databases` cannot name a dataset's databases, or null when it can. A server URL must hold
 * `{db_id}` (else every question would go to one database) and no password: it reaches the
 * benchmark's history and every question's, so the password must come from the worker's
 * configuration (DECODEX_DATABASE_<NAME> for the same account).
 */
export function datasetDatabasesProblem(databases: string): string | null {
  if (!isServerUrl(databases)) return null;
  if (!databases.includes(DB_ID_PLACEHOLDER)) {
    return `a server URL for a dataset's databases names each one by its db_id: write ${DB_ID_PLACEHOLDER} where the database goes (postgres://user@host:port/${DB_ID_PLACEHOLDER})`;
  }
  let password: string;
  try {
    ({ password } = parseServerUrl(databases.split(DB_ID_PLACEHOLDER).join('db')));
  } catch (err) {
    return (err as Error).message;
  }
  if (password) {
    return `${redactDatabaseSpec(databases)} holds a password; leave it out and give the worker the account's credentials (DECODEX_DATABASE_<NAME>=postgres://user:password@host:port/any_database)`;
  }
  return null;
}
