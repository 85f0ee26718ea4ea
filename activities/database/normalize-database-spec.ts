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
export function normalizeDatabaseSpec(spec: string, cwd = process.cwd()): NormalizedDatabase {
  const trimmed = spec.trim();
  if (!trimmed) throw new Error('database must be a SQLite file path, a mysql:// or postgres:// URL or the name of a configured connection');
  if (isServerUrl(trimmed)) {
    const parts = parseServerUrl(trimmed);
    return { reference: formatServerUrl(parts, false), ...(parts.password ? { password: parts.password } : {}) };
  }
  const file = path.resolve(cwd, trimmed);
  if (isConnectionName(trimmed) && !existsSync(file)) return { reference: trimmed };
  return { reference: file };
}
