import path from 'node:path';
import { formatServerUrl, isConnectionName, isServerUrl, parseServerUrl, redactDatabaseSpec, serverAccountKey } from '../../core/database-reference';

/** `DECODEX_DATABASE_<NAME>`: a named connection in the worker's environment. */
const ENV_PREFIX = 'DECODEX_DATABASE_';

export function connectionEnvName(name: string): string {
  return ENV_PREFIX + name.toUpperCase().replace(/-/g, '_');
}

/**
 * The worker's side of database references: it turns a reference from a workflow (which never
 * holds a credential) into what opens the database, with the credentials only this worker knows:
 *
 * - a connection name → the connection configured under that name: `DECODEX_DATABASE_<NAME>` in
 *   the environment, or `"databases": {"<name>": "..."}` in the DECODEX_CONFIG file (a SQLite
 *   path or a full MySQL or PostgreSQL URL, password included);
 * - a MySQL or PostgreSQL URL without a password → the password of that account
 *   (`engine:user@host:port`) from a configured connection, or from `addPassword` (the CLI's own
 *   in-process worker);
 * - an absolute path → itself.
 *
 * A reference that carries a password is refused: it has already been written into Temporal's
 * history, and accepting it would make that the way to pass one.
 */
export class DatabaseConnections {
  private readonly named = new Map<string, string>();
  private readonly passwords = new Map<string, string>();

  constructor(named: Record<string, string> = {}) {
    for (const [name, spec] of Object.entries(named)) this.addNamed(name, spec);
  }

  /** The connections of the environment (`DECODEX_DATABASE_*`) and of the config file's `databases` section. */
  static fromConfig(env: Record<string, string | undefined>, fileSection?: unknown): DatabaseConnections {
    const connections = new DatabaseConnections();
    if (fileSection !== undefined) {
      if (typeof fileSection !== 'object' || fileSection === null || Array.isArray(fileSection)) {
        throw new Error('"databases" in DECODEX_CONFIG must be an object of connection name → SQLite path, mysql:// or postgres:// URL');
      }
      for (const [name, spec] of Object.entries(fileSection)) {
        if (typeof spec !== 'string')
          throw new Error(`"databases"."${name}" in DECODEX_CONFIG must be a string (a SQLite path, a mysql:// or a postgres:// URL)`);
        connections.addNamed(name, spec);
      }
    }
    for (const [key, spec] of Object.entries(env)) {
      if (key.startsWith(ENV_PREFIX) && spec) connections.addNamed(key.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, '-'), spec);
    }
    return connections;
  }

  /** A password for the account of `reference` (a server URL without one), known to this process only. */
  addPassword(reference: string, password: string): void {
    this.passwords.set(serverAccountKey(parseServerUrl(reference)), password);
  }

  /** What opens the database `reference` names, credentials included. Never put its result in a message. */
  resolve(reference: string): string {
    if (isServerUrl(reference)) {
      const parts = parseServerUrl(reference);
      if (parts.password) {
        throw new Error(
          `the database reference ${redactDatabaseSpec(reference)} carries a password; credentials never travel in workflow inputs: ` +
            'configure the connection on the worker (DECODEX_DATABASE_<NAME> or "databases" in DECODEX_CONFIG) and pass its name or the URL without the password',
        );
      }
      return formatServerUrl({ ...parts, password: this.passwords.get(serverAccountKey(parts)) ?? '' }, true);
    }
    if (path.isAbsolute(reference)) return reference;
    if (isConnectionName(reference)) {
      const spec = this.named.get(reference.toLowerCase().replace(/_/g, '-'));
      if (spec) return spec;
      throw new Error(
        `no database connection named "${reference}" is configured on this worker: set ${connectionEnvName(reference)}=<sqlite path | mysql:// or postgres://user:password@host/db> ` +
          `or "databases": {"${reference}": ...} in DECODEX_CONFIG (and no SQLite file of that name was given by an absolute path)`,
      );
    }
    return path.resolve(reference);
  }

  private addNamed(name: string, spec: string): void {
    if (!isConnectionName(name)) throw new Error(`database connection name "${name}" must be letters, digits, _ and - (starting with a letter)`);
    const resolved = isServerUrl(spec) ? spec : path.resolve(spec);
    this.named.set(name.toLowerCase().replace(/_/g, '-'), resolved);
    if (isServerUrl(spec)) {
      const parts = parseServerUrl(spec);
      if (parts.password) this.passwords.set(serverAccountKey(parts), parts.password);
    }
  }
}
