import type { InternalQuery } from './column-statistics';

/**
 * What the connected PostgreSQL account may do beyond reading, each named once: superuser and
 * role attributes, membership in the predefined roles that write files, run programs or write
 * every table, CREATE on the database or on a schema, and INSERT/UPDATE/DELETE/TRUNCATE on any
 * table decodex could see. Empty: the account can only read (the barrier below the statement
 * guard and the read-only transactions).
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
  const [roles] = await query(
    "SELECT string_agg(r, ', ' ORDER BY r) FROM unnest(ARRAY['pg_write_server_files', 'pg_execute_server_program', 'pg_write_all_data', 'pg_signal_backend', 'pg_read_server_files']) AS r " +
      "WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) AND pg_has_role(current_user, r, 'USAGE')",
  );
  if (roles[0] !== null) writes.push(`member of ${roles[0]}`);
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
