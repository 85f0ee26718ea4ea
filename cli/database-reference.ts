import { normalizeDatabaseSpec } from '../activities/database/normalize-database-spec';
import { serverEngineOf } from '../core/database-reference';

export { normalizeDatabaseSpec, type NormalizedDatabase } from '../activities/database/normalize-database-spec';

/** For services: a reference, or a clear refusal when the spec holds a password (it would be written into Temporal's history). */
export function databaseReferenceOrFail(spec: string): string {
  const { reference, password } = normalizeDatabaseSpec(spec);
  if (password !== undefined) {
    throw new Error(
      `the database URL holds a password, and workflow inputs are stored in Temporal's history: pass ${reference} (without the password) ` +
        `and give the worker the credentials (${credentialsSetting(reference)} or "databases" in DECODEX_CONFIG), or pass the connection name`,
    );
  }
  return reference;
}

/** How a worker is given the password of `reference`'s account: a connection in its engine's own scheme. */
export function credentialsSetting(reference: string): string {
  return `DECODEX_DATABASE_<NAME>=${serverEngineOf(reference) ?? 'mysql'}://user:password@host:port/db`;
}
