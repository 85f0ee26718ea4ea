import type { InternalQuery } from './column-statistics';

/** PostgreSQL's predefined roles that reach beyond reading this database's tables, with what each may do. */
const PREDEFINED_ROLES: Record<string, string> = {
  pg_execute_server_program: 'runs programs on the server',
  pg_read_server_files: 'reads any file the server can',
  pg_signal_backend: 'cancels and ends other sessions',
  pg_write_all_data: 'writes every table',
  pg_write_server_files: 'writes files on the server',
};

/**
 * What the connected PostgreSQL account may do beyond reading, each named once: superuser and
 * role attributes, membership (inherited or not) in the predefined roles that read or write the
 * server's files, run programs, signal other sessions or write every table, CREATE on the
 * database or on a schema, and INSERT/UPDATE/DELETE/TRUNCATE on any table decodex could see.
 * Empty: the account can only read its tables (the barrier below the statement checks and the
 * read-only transactions).
 */
export async function postgresWritePrivileges(query: InternalQuery): Promise<{ account: string; writes: string[] }> {
  const [[account, superuser, createRole, createDb, replication, bypassRls]] = await query(
    'SELECT current_user::text, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = current_user',
  );
  const writes: string[] = [];
  const attributes: [unknown, string][] = [
    [superuser, 'SUPERUSER'],
    [createRole, 'CREATEROLE'],
    [createDb, 'CREATEDB'],
    [replication, 'REPLICATION'],
    [bypassRls, 'BYPASSRLS'],
  ];
  for (const [has, name] of attributes) if (has === 1) writes.push(name);
  if (superuser === 1) return { account: String(account), writes }; // a superuser can do everything below too
  // MEMBER, not USAGE: a NOINHERIT member has none of the role's rights until it SETs ROLE to it, which it may.
  const roles = await query(
    `SELECT r FROM unnest(ARRAY[${Object.keys(PREDEFINED_ROLES)
      .map((r) => `'${r}'`)
      .join(', ')}]) AS r WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) AND pg_has_role(current_user, r, 'MEMBER') ORDER BY r`,
  );
  for (const [role] of roles) writes.push(`member of ${role} (${PREDEFINED_ROLES[String(role)]})`);
  const [[createOnDb]] = await query("SELECT has_database_privilege(current_database(), 'CREATE')");
  if (createOnDb === 1) writes.push('CREATE on the database');
  const [schemas] = await query(
    "SELECT string_agg(nspname, ', ' ORDER BY nspname) FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') " +
      "AND nspname NOT LIKE 'pg\\_%' AND has_schema_privilege(oid, 'CREATE')",
  );
  if (schemas[0] !== null) writes.push(`CREATE on schema ${schemas[0]}`);
  const [tablePrivileges] = await query(
    "SELECT string_agg(DISTINCT p, ', ') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS p " +
      "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%' " +
      'AND has_table_privilege(c.oid, p)',
  );
  if (tablePrivileges[0] !== null) writes.push(String(tablePrivileges[0]));
  return { account: String(account), writes };
}
