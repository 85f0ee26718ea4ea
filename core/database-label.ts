import { isMysqlUrl, parseMysqlUrl } from './database-reference';

export { redactDatabaseSpec } from './database-reference';

/**
 * A short name for a database reference, used as the DecodexDatabase search attribute and in
 * workflow ids: `concert_singer` for `.../concert_singer.sqlite`, `db` for `mysql://h:3306/db`,
 * the name itself for a named connection. Passwords in URLs never reach the label.
 */
export function databaseLabel(spec: string): string {
  if (isMysqlUrl(spec)) {
    try {
      return parseMysqlUrl(spec).database;
    } catch {
      return 'mysql';
    }
  }
  const base = spec.split(/[\\/]/).pop() ?? spec;
  return base.replace(/\.(sqlite3?|db)$/i, '');
}
