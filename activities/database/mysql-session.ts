import type { PoolConnection } from 'mysql2/promise';

export type MysqlFlavor = 'mariadb' | 'mysql';

export interface MysqlServerInfo {
  flavor: MysqlFlavor;
  version: string;
  /** The server's default sql_mode without the modes that would change how SQL is tokenized. */
  sqlMode: string;
  /** The variables bounding a statement's temp disk that this server has and this account may set (TEMP_DISK_VARIABLES). */
  tempDiskVariables: string[];
}

/**
 * What MariaDB lets a session bound its temp disk with: `tmp_disk_table_size` (MariaDB 10.2+: the
 * data of one internal on-disk temporary table, which GROUP BY, DISTINCT, UNION, derived tables
 * and an ORDER BY over a join write; past it the statement fails at once with "The table
 * '(temporary)' is full") and `max_tmp_session_space_usage` (MariaDB 11.5+: every temporary file
 * and table of the session, filesort's merge files included). MySQL has neither as a session
 * setting (its TempTable limits are global).
 */
export const TEMP_DISK_VARIABLES = ['tmp_disk_table_size', 'max_tmp_session_space_usage'] as const;

/**
 * Modes that change what is a string and what is a name, or what a backslash means. The
 * read-only guard tokenizes MySQL SQL assuming none of them, so every session turns them off.
 * (ANSI, ORACLE, ... are combinations that include ANSI_QUOTES.)
 */
const TOKENIZER_CHANGING_MODES = new Set(['ANSI_QUOTES', 'NO_BACKSLASH_ESCAPES', 'ANSI', 'DB2', 'MAXDB', 'MSSQL', 'ORACLE', 'POSTGRESQL']);

export async function inspectMysqlServer(conn: PoolConnection): Promise<MysqlServerInfo> {
  const [rows] = await conn.query({ sql: 'SELECT VERSION(), @@SESSION.sql_mode', rowsAsArray: true });
  const [version, sqlMode] = (rows as string[][])[0];
  const [present] = await conn.query({ sql: 'SHOW SESSION VARIABLES WHERE Variable_name IN (?)', values: [TEMP_DISK_VARIABLES], rowsAsArray: true });
  const tempDiskVariables: string[] = [];
  for (const [name] of present as string[][]) {
    // Setting it to its own value tells whether this account may set it, without changing anything.
    try {
      await conn.query(`SET SESSION ${name} = @@SESSION.${name}`);
      tempDiskVariables.push(name);
    } catch {
      // a server that keeps it for privileged accounts: the timeout is then the only bound
    }
  }
  return {
    tempDiskVariables,
    flavor: /mariadb/i.test(version) ? 'mariadb' : 'mysql',
    version,
    sqlMode: sqlMode
      .split(',')
      .filter((m) => m && !TOKENIZER_CHANGING_MODES.has(m.toUpperCase()))
      .join(','),
  };
}

/** How long after the client's own deadline (and KILL QUERY) the server-side limit steps in. */
export const SERVER_TIME_LIMIT_GRACE_MS = 1000;

/**
 * Session settings for one statement: the tokenizer-safe sql_mode, a server-side time limit
 * and a server-side row cap (sql_select_limit applies to the outermost SELECT, so the server
 * stops after maxRows + 1 rows instead of producing them all).
 *
 * The time limit (MariaDB max_statement_time in seconds; MySQL max_execution_time in ms, for
 * SELECT only) is a backstop, set a little past the deadline: the client's KILL QUERY at the
 * deadline is what normally stops the statement, and the backstop covers a client that died.
 * The temp disk bound (`maxTempDiskBytes`) goes into every TEMP_DISK_VARIABLES the server has.
 */
export function sessionSettingsSql(server: MysqlServerInfo, timeoutMs: number, maxRows: number, maxTempDiskBytes: number): { sql: string; values: unknown[] } {
  const limitMs = timeoutMs + SERVER_TIME_LIMIT_GRACE_MS;
  const timeLimit = server.flavor === 'mariadb' ? 'max_statement_time = ?' : 'max_execution_time = ?';
  const timeValue = server.flavor === 'mariadb' ? limitMs / 1000 : Math.ceil(limitMs);
  const tempDisk = server.tempDiskVariables.map((name) => `, ${name} = ?`).join('');
  return {
    sql: `SET SESSION sql_mode = ?, ${timeLimit}, sql_select_limit = ?${tempDisk}`,
    values: [server.sqlMode, timeValue, maxRows + 1, ...server.tempDiskVariables.map(() => maxTempDiskBytes)],
  };
}
