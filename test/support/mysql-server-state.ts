import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';

/** Global variables a hostile statement could try to change (directly or through a definer's function). */
const GLOBALS = [
  'max_connections',
  'general_log',
  'general_log_file',
  'slow_query_log',
  'log_output',
  'sql_mode',
  'read_only',
  'local_infile',
  'max_allowed_packet',
  'max_statement_time',
  'event_scheduler',
  'tmp_disk_table_size',
];

/**
 * A fingerprint of everything on a MariaDB server that generated SQL must not change, read as
 * root: the database's tables (CHECKSUM TABLE ... EXTENDED), its sequence, its routines and
 * views, every account and database, server variables, the user-level locks the corpus names,
 * and the names of the files in the server's data directory and the database's folder (where a
 * relative OUTFILE lands). For a server of the test's own: another test file's databases and
 * accounts would change it.
 */
export async function mysqlServerState(rootUrl: string, database: string): Promise<string> {
  const conn = await mysql.createConnection(rootUrl);
  try {
    const q = async (sql: string, values: unknown[] = []) => (await conn.query({ sql, values, rowsAsArray: true }))[0];
    const tables = (await q('SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = ? ORDER BY 1', [database])) as string[][];
    const base = tables.filter(([, kind]) => kind === 'BASE TABLE').map(([name]) => `${conn.escapeId(database)}.${conn.escapeId(name)}`);
    const [[dir]] = (await q('SELECT @@datadir')) as string[][];
    const listing = (folder: string) => (existsSync(folder) ? readdirSync(folder).sort() : 'no local data directory');
    return JSON.stringify({
      tables,
      sums: base.length ? await q(`CHECKSUM TABLE ${base.join(', ')} EXTENDED`) : [],
      sequence: await q(`SELECT next_not_cached_value FROM ${conn.escapeId(database)}.seq`),
      routines: await q('SELECT routine_schema, routine_name, routine_definition FROM information_schema.routines ORDER BY 1, 2'),
      views: await q('SELECT table_schema, table_name, view_definition FROM information_schema.views ORDER BY 1, 2'),
      users: await q('SELECT user, host FROM mysql.user ORDER BY 1, 2'),
      databases: await q('SHOW DATABASES'),
      globals: await q(`SHOW GLOBAL VARIABLES WHERE Variable_name IN (${GLOBALS.map(() => '?').join(', ')})`, GLOBALS),
      locks: await q("SELECT IS_FREE_LOCK('decodex'), IS_FREE_LOCK('x')"),
      dataDir: listing(dir),
      databaseDir: listing(path.join(dir, database)),
    });
  } finally {
    await conn.end();
  }
}
