import { refusedFunction } from './allowed-functions';
import type { InternalQuery } from './column-statistics';

/**
 * PostgreSQL reads `x.f`, where f is no column of x, as the call `f(x)` when a function f takes
 * one argument: `SELECT ('/etc/passwd'::text).pg_read_file` reads the file, with no function call
 * anywhere in the parse tree. The statement check (postgres-statement-check.ts) cannot tell a
 * column from a function by its name alone, so it is given the names that would be calls: every
 * function of the database that can be called with one argument, that generated SQL may not call
 * (allowed-functions.ts), and that no column of any table or view is called. A field so named
 * is refused. Read once per database; a column alias that shares such a name (`s.area` over
 * `SELECT ... AS area`) is refused too, and the message says why.
 */
export async function readFieldFunctions(query: InternalQuery): Promise<Set<string>> {
  const rows = await query(
    'SELECT DISTINCT p.proname::text FROM pg_proc p WHERE p.pronargs >= 1 AND (p.pronargs - p.pronargdefaults <= 1 OR p.provariadic <> 0) ' +
      'AND NOT EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace ' +
      "WHERE a.attname = p.proname AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f') " +
      "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%')",
  );
  return new Set(rows.map(([name]) => String(name)).filter((name) => refusedFunction(name, 'postgres') !== null));
}
