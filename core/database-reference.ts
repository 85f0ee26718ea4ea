/**
 * Database references: what a workflow carries to name a database. A reference never holds a
 * credential (Temporal keeps workflow and activity inputs in its history, shown in the Web UI):
 * it is an absolute SQLite path, a MySQL/MariaDB or PostgreSQL URL without its password
 * (`mysql://reader@host:3306/shop`, `postgres://reader@host:5432/shop`), or the name of a
 * connection the worker has configured.
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

/** A database server decodex reaches by URL; SQLite is a file. */
export type ServerEngine = 'mysql' | 'postgres';

export interface ServerUrlParts extends MysqlUrlParts {
  engine: ServerEngine;
}

/** Each scheme's engine; `mariadb://` is written back as `mysql://`, `postgresql://` as `postgres://`. */
const SCHEMES: Record<string, ServerEngine> = { mysql: 'mysql', mariadb: 'mysql', postgres: 'postgres', postgresql: 'postgres' };
const DEFAULTS: Record<ServerEngine, { port: number; user: string }> = { mysql: { port: 3306, user: 'root' }, postgres: { port: 5432, user: 'postgres' } };
const SCHEME = /^([a-z]+):\/\//i;

/** A named connection: a bare word, no path separator and no dot (a file name has an extension). */
const CONNECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The engine a URL's scheme names, or null when the spec is no server URL (a path, a name). */
export function serverEngineOf(spec: string): ServerEngine | null {
  const scheme = SCHEME.exec(spec)?.[1].toLowerCase();
  return (scheme && SCHEMES[scheme]) || null;
}

export function isServerUrl(spec: string): boolean {
  return serverEngineOf(spec) !== null;
}

export function isMysqlUrl(spec: string): boolean {
  return serverEngineOf(spec) === 'mysql';
}

export function isPostgresUrl(spec: string): boolean {
  return serverEngineOf(spec) === 'postgres';
}

export function isConnectionName(spec: string): boolean {
  return CONNECTION_NAME.test(spec);
}

/** `mysql://user:password@host:port/db` (or `mariadb://`); see parseServerUrl. */
export function parseMysqlUrl(spec: string): MysqlUrlParts {
  if (!isMysqlUrl(spec)) throw new Error(`not a mysql:// or mariadb:// URL: ${redactDatabaseSpec(spec)}`);
  const { engine: _engine, ...parts } = parseServerUrl(spec);
  return parts;
}

/**
 * `scheme://user:password@host:port/db`. The user information ends at the LAST `@` of the
 * authority, so a password holding a raw `@` (or `:`) is read whole, not cut at its first `@`
 * with the rest taken for the host. Percent-escapes are decoded where they are valid. A query
 * string is ignored.
 */
export function parseServerUrl(spec: string): ServerUrlParts {
  const engine = serverEngineOf(spec);
  if (!engine) throw new Error(`not a mysql://, mariadb://, postgres:// or postgresql:// URL: ${redactDatabaseSpec(spec)}`);
  const rest = spec.replace(SCHEME, '');
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
  if (!database) throw new Error(`the URL names no database (${engine}://user@host:port/DATABASE): ${redactDatabaseSpec(spec)}`);
  refuseTlsParameters(spec, engine);
  const defaults = DEFAULTS[engine];
  return {
    engine,
    user: user || defaults.user,
    password,
    host: hostMatch[1] || 'localhost',
    port: hostMatch[2] ? Number(hostMatch[2]) : defaults.port,
    database,
  };
}

/**
 * decodex connects with the URL's user, password, host, port and database only; a query string is
 * not applied. A URL that asks for TLS (`?sslmode=require`, `?ssl=true`) would then connect in
 * plain text without saying so: it is refused, naming what applies instead.
 */
function refuseTlsParameters(spec: string, engine: ServerEngine): void {
  const query = /\?([^#]*)/.exec(spec.slice(spec.lastIndexOf('@') + 1))?.[1] ?? '';
  for (const [key, value] of new URLSearchParams(query)) {
    if (/^ssl/i.test(key) && !/^(disable|false|0)$/i.test(value)) {
      const instead = engine === 'postgres' ? "set PGSSLMODE (and PGSSLROOTCERT) in the worker's environment" : 'TLS to MySQL is not supported yet';
      throw new Error(`${key}=${value} in the URL is not applied (decodex reads only user, password, host, port and database from it): ${instead}`);
    }
  }
}

/** The URL of these parts; with `withPassword` false (references, logs) the password is left out. */
export function formatMysqlUrl(parts: MysqlUrlParts, withPassword: boolean): string {
  return formatServerUrl({ ...parts, engine: 'mysql' }, withPassword);
}

/** The URL of these parts, in the engine's one spelling; with `withPassword` false the password is left out. */
export function formatServerUrl(parts: ServerUrlParts, withPassword: boolean): string {
  const auth = encodeURIComponent(parts.user) + (withPassword && parts.password ? ':' + encodeURIComponent(parts.password) : '');
  return `${parts.engine}://${auth}@${parts.host}:${parts.port}/${encodeURIComponent(parts.database)}`;
}

/** The account a password belongs to: `engine:user@host:port` (the database does not matter). */
export function serverAccountKey(parts: Pick<ServerUrlParts, 'engine' | 'user' | 'host' | 'port'>): string {
  return `${parts.engine}:${parts.user}@${parts.host.toLowerCase()}:${parts.port}`;
}

/** The spec with any password replaced, safe for logs, messages, summaries and the Web UI. */
export function redactDatabaseSpec(spec: string): string {
  // Any scheme, not only the ones decodex opens: a password in a mistyped URL is still a password.
  if (!SCHEME.test(spec)) return spec;
  const rest = spec.replace(SCHEME, '');
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
