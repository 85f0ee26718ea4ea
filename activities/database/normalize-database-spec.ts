import { existsSync } from 'node:fs';
import path from 'node:path';
import { formatServerUrl, isConnectionName, isServerUrl, parseServerUrl } from '../../core/database-reference';

export interface NormalizedDatabase {
  /** What the workflow carries: an absolute SQLite path, a MySQL or PostgreSQL URL without password, or a connection name. */
  reference: string;
  /** The password the spec held, if any: it must stay in this process. */
  password?: string;
}

/**
 * The one place a user's database spec becomes a reference (core/database-reference.ts), so
 * `ask`, `prepare` and services name a database the same way and the prepared id never hashes a
 * password or depends on the working directory: a relative SQLite path becomes absolute, a server
 * URL (MySQL, PostgreSQL) loses its password (returned apart) and takes its engine's one scheme, and a bare word that is no file here is the name of a
 * connection configured on the workers.
 */
/** Something like a URL scheme (two letters at least, so no drive letter): `mysql:`, `postgres:`, `sqlite:`. */
const OTHER_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

export function normalizeDatabaseSpec(spec: string, cwd = process.cwd()): NormalizedDatabase {
  const trimmed = spec.trim();
  if (!trimmed) throw new Error('database must be a SQLite file path, a mysql:// or postgres:// URL or the name of a configured connection');
  const scheme = OTHER_SCHEME.exec(trimmed);
  if (scheme && !isServerUrl(trimmed)) {
    // `mysql:/x` or `sqlite://...` would otherwise be taken for a relative SQLite path and fail
    // only when a worker opens it. The rest of the spec may hold a password: only the scheme is named.
    throw new Error(
      `a database starting "${scheme[1]}:" is no URL decodex reads: use mysql://user@host:port/db (or mariadb://), postgres://user@host:port/db ` +
        '(or postgresql://), a SQLite file path (write a file name holding a colon as ./name), or the name of a configured connection',
    );
  }
  if (isServerUrl(trimmed)) {
    const parts = parseServerUrl(trimmed);
    return { reference: formatServerUrl(parts, false), ...(parts.password ? { password: parts.password } : {}) };
  }
  const file = path.resolve(cwd, trimmed);
  if (isConnectionName(trimmed) && !existsSync(file)) return { reference: trimmed };
  return { reference: file };
}
