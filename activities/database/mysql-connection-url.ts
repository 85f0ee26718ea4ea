import { isMysqlUrl, parseMysqlUrl as parseUrl } from '../../core/database-reference';

export { isMysqlUrl };

export interface MysqlConnectionSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** `mysql://user:pass@host:port/db` (or `mariadb://`); user, password and port are optional. */
export function parseMysqlUrl(spec: string): MysqlConnectionSettings {
  const { host, port, user, password, database } = parseUrl(spec);
  return { host, port, user, password, database };
}
