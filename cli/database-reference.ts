import { normalizeDatabaseSpec, type NormalizedDatabase } from '../activities/database/normalize-database-spec';
import { databaseFileProblem } from '../activities/database/sqlite-file-problem';
import { serverEngineOf } from '../core/database-reference';

export { normalizeDatabaseSpec, type NormalizedDatabase } from '../activities/database/normalize-database-spec';

/**
 * The one place a database given to decodex (`--db`, a client's `database`) becomes the reference
 * a run carries (normalizeDatabaseSpec: the password it held comes back apart), refused before
 * anything starts when no worker could open it. `openedAs` gives what a worker opens for the
 * reference (the reference itself, or the spec of the connection it names); without it, when the
 * workers' files are not this machine's, only the spec itself is checked.
 */
export function checkedDatabase(spec: string, openedAs?: (reference: string) => string): NormalizedDatabase {
  const normalized = normalizeDatabaseSpec(spec);
  const problem = openedAs ? databaseFileProblem(openedAs(normalized.reference)) : null;
  if (problem) throw new Error(problem);
  return normalized;
}

/** For services: a checked reference (checkedDatabase), or a clear refusal when the spec holds a password (it would be written into Temporal's history). */
export function databaseReferenceOrFail(spec: string, openedAs?: (reference: string) => string): string {
  const { reference, password } = checkedDatabase(spec, openedAs);
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
