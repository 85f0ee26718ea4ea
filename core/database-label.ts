import { parseServerUrl, serverEngineOf } from './database-reference';

export { redactDatabaseSpec } from './database-reference';

/**
 * A short name for a database reference, used as the DecodexDatabase search attribute and in
 * workflow ids: `concert_singer` for `.../concert_singer.sqlite`, `db` for `mysql://h:3306/db` or
 * `postgres://h:5432/db`,
 * the name itself for a named connection. Passwords in URLs never reach the label.
 */
export function databaseLabel(spec: string): string {
  const engine = serverEngineOf(spec);
  if (engine) {
    try {
      return parseServerUrl(spec).database;
    } catch {
      return engine;
    }
  }
  const base = spec.split(/[\\/]/).pop() ?? spec;
  return base.replace(/\.(sqlite3?|db)$/i, '');
}
