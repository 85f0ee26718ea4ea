/**
 * The drivers' codes for a server that answers but has no database of the name asked for:
 * PostgreSQL's SQLSTATE invalid_catalog_name, MySQL's ER_BAD_DB_ERROR (1049).
 */
const MISSING_DATABASE_CODES = new Set(['3D000', 'ER_BAD_DB_ERROR']);

/**
 * Whether opening a server database failed because the server has no such database, as a
 * missing SQLite file: nothing to evaluate on, unlike a server that is down or a refused login,
 * which may pass. Reads the error and its causes (checkOnConnect keeps the driver's error as the cause).
 */
export function isMissingDatabase(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (MISSING_DATABASE_CODES.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}
