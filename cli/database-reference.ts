import { normalizeDatabaseSpec } from '../activities/database/normalize-database-spec';

export { normalizeDatabaseSpec, type NormalizedDatabase } from '../activities/database/normalize-database-spec';

/** For services: a reference, or a clear refusal when the spec holds a password (it would be written into Temporal's history). */
export function databaseReferenceOrFail(spec: string): string {
  const { reference, password } = normalizeDatabaseSpec(spec);
  if (password !== undefined) {
    throw new Error(
      `the database URL holds a password, and workflow inputs are stored in Temporal's history: pass ${reference} (without the password) ` +
        'and give the worker the credentials (DECODEX_DATABASE_<NAME>=mysql://user:password@host/db or "databases" in DECODEX_CONFIG), or pass the connection name',
    );
  }
  return reference;
}
