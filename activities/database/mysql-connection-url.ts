export interface MysqlConnectionSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export function isMysqlUrl(spec: string): boolean {
  return /^(mysql|mariadb):\/\//i.test(spec);
}

/** `mysql://user:pass@host:port/db` (or `mariadb://`); user, password and port are optional. */
export function parseMysqlUrl(spec: string): MysqlConnectionSettings {
  if (!isMysqlUrl(spec)) throw new Error(`not a mysql:// or mariadb:// URL: ${redactPassword(spec)}`);
  const url = new URL(spec.replace(/^mariadb:/i, 'mysql:'));
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new Error(`the URL names no database (mysql://user:pass@host:port/DATABASE): ${redactPassword(spec)}`);
  return {
    host: url.hostname || 'localhost',
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
    database,
  };
}

/** For messages and logs: never print a password. */
export function redactPassword(spec: string): string {
  return spec.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
