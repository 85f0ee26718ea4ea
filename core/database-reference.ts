/**
 * Database references: what a workflow carries to name a database. A reference never holds a
 * credential (Temporal keeps workflow and activity inputs in its history, shown in the Web UI):
 * it is an absolute SQLite path, a MySQL/MariaDB URL without its password
 * (`mysql://reader@host:3306/shop`), or the name of a connection the worker has configured.
 * Pure, so the client, the workflows and the activities read references the same way.
 */

export interface MysqlUrlParts {
  user: string;
  /** Empty when the URL has none. */
  password: string;
  host: string;
  port: number;
  database: string;
}

const MYSQL_SCHEME = /^(mysql|mariadb):\/\//i;

/** A named connection: a bare word, no path separator and no dot (a file name has an extension). */
const CONNECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function isMysqlUrl(spec: string): boolean {
  return MYSQL_SCHEME.test(spec);
}

export function isConnectionName(spec: string): boolean {
  return CONNECTION_NAME.test(spec);
}

/**
 * `mysql://user:password@host:port/db`. The user information ends at the LAST `@` of the
 * authority, so a password holding a raw `@` (or `:`) is read whole, not cut at its first `@`
 * with the rest taken for the host. Percent-escapes are decoded where they are valid.
 */
export function parseMysqlUrl(spec: string): MysqlUrlParts {
  if (!isMysqlUrl(spec)) throw new Error(`not a mysql:// or mariadb:// URL: ${redactDatabaseSpec(spec)}`);
  const rest = spec.replace(MYSQL_SCHEME, '');
  const at = rest.lastIndexOf('@');
  const userInfo = at >= 0 ? rest.slice(0, at) : '';
  const hostAndPath = at >= 0 ? rest.slice(at + 1) : rest;
  const colon = userInfo.indexOf(':');
  const user = decode(colon >= 0 ? userInfo.slice(0, colon) : userInfo);
  const password = colon >= 0 ? decode(userInfo.slice(colon + 1)) : '';
  const slash = hostAndPath.indexOf('/');
  const hostPort = slash >= 0 ? hostAndPath.slice(0, slash) : hostAndPath;
  const database = decode((slash >= 0 ? hostAndPath.slice(slash + 1) : '').replace(/[?#].*$/, ''));
  const hostMatch = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(hostPort);
  if (!hostMatch) throw new Error(`cannot read host and port of ${redactDatabaseSpec(spec)}`);
  if (!database) throw new Error(`the URL names no database (mysql://user@host:port/DATABASE): ${redactDatabaseSpec(spec)}`);
  return { user: user || 'root', password, host: hostMatch[1] || 'localhost', port: hostMatch[2] ? Number(hostMatch[2]) : 3306, database };
}

/** The URL of these parts; with `withPassword` false (references, logs) the password is left out. */
export function formatMysqlUrl(parts: MysqlUrlParts, withPassword: boolean): string {
  const auth = encodeURIComponent(parts.user) + (withPassword && parts.password ? ':' + encodeURIComponent(parts.password) : '');
  return `mysql://${auth}@${parts.host}:${parts.port}/${encodeURIComponent(parts.database)}`;
}

/** The MySQL account a password belongs to: `user@host:port` (the database does not matter). */
export function mysqlAccountKey(parts: Pick<MysqlUrlParts, 'user' | 'host' | 'port'>): string {
  return `${parts.user}@${parts.host.toLowerCase()}:${parts.port}`;
}

/** The spec with any password replaced, safe for logs, messages, summaries and the Web UI. */
export function redactDatabaseSpec(spec: string): string {
  if (!isMysqlUrl(spec)) return spec;
  const rest = spec.replace(MYSQL_SCHEME, '');
  const at = rest.lastIndexOf('@');
  if (at < 0) return spec;
  const userInfo = rest.slice(0, at);
  const colon = userInfo.indexOf(':');
  if (colon < 0) return spec;
  return `${spec.slice(0, spec.length - rest.length)}${userInfo.slice(0, colon)}:***@${rest.slice(at + 1)}`;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a raw `%` that is no escape: the text is meant literally
  }
}
