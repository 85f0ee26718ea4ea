import type { ClientBase } from 'pg';
import { quoteIdentifier } from '../activities/database/sql-identifiers';

/**
 * What every session of a decodex reader role starts with (ALTER ROLE ... SET; README, "A
 * read-only PostgreSQL account"), whoever opens it: decodex sets its own limits per statement,
 * but these hold where it cannot, or for a session that is not decodex's.
 * - default_transaction_read_only: a transaction is read-only unless it asks otherwise;
 * - statement_timeout: no statement of the role runs unbounded;
 * - temp_file_limit: a reader may not SET it (superuser-only unless granted), so without this a
 *   big sort or a FETCH batch spilled to temp files bounded only by the server's limit, which is
 *   none by default. Setting it on a role takes a superuser.
 */
export const POSTGRES_READER_SETTINGS = {
  default_transaction_read_only: 'on',
  statement_timeout: '5min',
  temp_file_limit: '1GB',
} as const;

/** The ALTER ROLE statements that give `role` POSTGRES_READER_SETTINGS. */
export function postgresReaderSettingsSql(role: string): string[] {
  const name = quoteIdentifier(role, 'postgres');
  return Object.entries(POSTGRES_READER_SETTINGS).map(([setting, value]) => `ALTER ROLE ${name} SET ${setting} = '${value}'`);
}

/** Gives an existing role the reader settings (idempotent), as a superuser `admin`. */
export async function applyPostgresReaderSettings(admin: ClientBase, role: string): Promise<void> {
  for (const sql of postgresReaderSettingsSql(role)) await admin.query(sql);
}

/**
 * A login role that can only read: created if missing (without a password: the test servers trust
 * 127.0.0.1), with the reader settings. What it may read is granted per database
 * (devkit/spider-to-postgres.ts `reader`).
 */
export async function createPostgresReader(admin: ClientBase, role: string): Promise<void> {
  const name = quoteIdentifier(role, 'postgres');
  const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (!exists.rowCount) await admin.query(`CREATE ROLE ${name} LOGIN`);
  await applyPostgresReaderSettings(admin, role);
}
