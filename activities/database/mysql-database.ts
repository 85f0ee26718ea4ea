import type { Connection as CoreConnection } from 'mysql2';
import mysql, { type Pool, type PoolConnection } from 'mysql2/promise';
import type { SqlRow } from '../../core/sql-value';
import { StatisticsFromSql } from './statistics-delegate';
import {
  accountPolicyOf,
  checkOnConnect,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_TEMP_DISK_BYTES,
  maxResultBytesOf,
  type ServerDatabaseOptions,
} from './server-database-options';
import { redactDatabaseSpec } from '../../core/database-reference';
import { parseMysqlUrl, type MysqlConnectionSettings } from './mysql-connection-url';
import { readMysqlSchema } from './mysql-schema';
import { accountWritePrivileges } from './mysql-grants';
import { packetWatchdogStream } from './mysql-packet-watchdog';
import { assertNoUnsafeView, describeUnsafeViews, readUnsafeViews, type UnsafeView } from './mysql-unsafe-views';
import { inspectMysqlServer, sessionSettingsSql, type MysqlServerInfo } from './mysql-session';
import { streamRows } from './mysql-stream';
import { executeGuarded } from './execute-options';
import { mysqlRelationVariable, type SqlWithParams } from './named-relations';
import { QueryTimeout, ReadOnlyViolation, type ExecuteOptions, type StatementRows, type TargetDatabase } from './target-database';
import type { SchemaInfo } from '../../core/database/schema-types';
import type { QueryResult } from '../../core/database/query-result';

export type MysqlDatabaseOptions = ServerDatabaseOptions;

export const DEFAULT_MYSQL_MAX_RESULT_BYTES = DEFAULT_MAX_RESULT_BYTES;

const INTERNAL_MAX_ROWS = 10_000_000;

/** Server errors that mean "stopped by a time limit or KILL QUERY". */
const INTERRUPTED_ERRNOS = new Set([1317 /* ER_QUERY_INTERRUPTED */, 1969 /* MariaDB max_statement_time */, 3024 /* MySQL max_execution_time */]);
const ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION = 1792;
const ER_RECORD_FILE_FULL = 1114;

/**
 * A MySQL or MariaDB database as a TargetDatabase. Generated SQL passes the statement guard,
 * then runs inside START TRANSACTION READ ONLY ... ROLLBACK. At its timeout a client-side timer
 * sends KILL QUERY from a separate connection, so the server really stops; a server-side time
 * limit a little later is the backstop if this process dies first. The row cap is applied by
 * the server (sql_select_limit) and, for a query with a LIMIT of its own, by a KILL QUERY.
 *
 * A read-only transaction does not stop DDL (CREATE/DROP commit implicitly): the guard does.
 * The strongest protection is still an account with only SELECT privileges; use one.
 */
export class MysqlDatabase extends StatisticsFromSql implements TargetDatabase {
  readonly dialect = 'mysql' as const;
  readonly name: string;
  private readonly database: string;
  private readonly pool: Pool;
  /** One connection kept aside for KILL QUERY, so a full pool cannot delay a kill. */
  private readonly killPool: Pool;
  private readonly internalTimeoutMs: number;
  private readonly maxResultBytes: number;
  private readonly maxTempDiskBytes: number;
  private server: Promise<MysqlServerInfo> | null = null;
  private closed = false;

  /** Write privileges of the account (empty: it can only read), from SHOW GRANTS at connection time. */
  accountCanWrite: string[] = [];
  /** Views whose reading can change something (mysql-unsafe-views.ts), read at connection time; statements naming one are refused. */
  unsafeViews: UnsafeView[] = [];
  warnings: string[] = [];

  /**
   * Opens the pool and checks the server answers, so a wrong URL fails here, clearly; then checks
   * the account's grants: the statement guard and read-only transactions are the barrier, and an
   * account that can only SELECT is the one below them. The views the account can see are checked
   * too: one that runs a stored function with its definer's rights writes whatever the grants.
   */
  static async connect(url: string, options: MysqlDatabaseOptions = {}): Promise<MysqlDatabase> {
    accountPolicyOf(options);
    const db = new MysqlDatabase(parseMysqlUrl(url), options);
    const check = { where: redactDatabaseSpec(url), setting: 'DECODEX_MYSQL_ACCOUNT', readme: 'A read-only MySQL account' };
    await checkOnConnect(db, check, options, async () => {
      await db.serverInfo();
      const conn = await db.pool.getConnection();
      try {
        const { account, writes } = await accountWritePrivileges(conn);
        db.unsafeViews = await readUnsafeViews(conn, account);
        return { account, writes, unsafeObjects: describeUnsafeViews(db.unsafeViews) };
      } finally {
        conn.release();
      }
    });
    return db;
  }

  private constructor(settings: MysqlConnectionSettings, options: MysqlDatabaseOptions) {
    super('mysql');
    this.name = `${settings.host}:${settings.port}/${settings.database}`;
    this.database = settings.database;
    this.maxResultBytes = maxResultBytesOf(options);
    const common = {
      ...settings,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      jsonStrings: true,
      // One statement per round trip: past the guard, `SELECT 1; DROP TABLE t` is still a syntax error on the server.
      multipleStatements: false,
    };
    // No row may be larger than a whole result's bound: the watchdog stops it before mysql2 reads it into memory.
    this.pool = mysql.createPool({ ...common, connectionLimit: options.connectionLimit ?? 4, stream: packetWatchdogStream(this.maxResultBytes) });
    this.killPool = mysql.createPool({ ...common, connectionLimit: 1 });
    for (const pool of [this.pool, this.killPool]) pool.on('connection', (conn) => keepErrorsFromCrashing(conn as unknown as CoreConnection));
    this.internalTimeoutMs = options.internalTimeoutMs ?? 120_000;
    this.maxTempDiskBytes = options.maxTempDiskBytes ?? DEFAULT_MAX_TEMP_DISK_BYTES;
    if (!(Number.isSafeInteger(this.maxTempDiskBytes) && this.maxTempDiskBytes > 0))
      throw new RangeError(`maxTempDiskBytes must be a positive integer, got ${options.maxTempDiskBytes}`);
  }

  schema(): Promise<SchemaInfo> {
    return readMysqlSchema((sql) => this.internalQuery(sql));
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    return executeGuarded(sql, options, 'mysql', (statement, limits) => {
      assertNoUnsafeView(sql, this.unsafeViews, this.database);
      return this.run(statement, limits);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.pool.end(), this.killPool.end()]);
  }

  protected async internalQuery(sql: string): Promise<SqlRow[]> {
    return (await this.run({ sql, params: [] }, { timeoutMs: this.internalTimeoutMs, maxRows: INTERNAL_MAX_ROWS })).rows;
  }

  private serverInfo(): Promise<MysqlServerInfo> {
    if (!this.server) {
      this.server = this.pool.getConnection().then(async (conn) => {
        try {
          return await inspectMysqlServer(conn);
        } finally {
          conn.release();
        }
      });
      this.server.catch(() => (this.server = null)); // let a later call retry
    }
    return this.server;
  }

  /** One statement in its own read-only transaction, with both time limits and the row cap. */
  private async run(statement: SqlWithParams, limits: ExecuteOptions): Promise<StatementRows> {
    const server = await this.serverInfo();
    const conn = await this.pool.getConnection();
    let reusable = false;
    try {
      const settings = sessionSettingsSql(server, limits.timeoutMs, limits.maxRows, this.maxTempDiskBytes);
      await conn.query(settings.sql, settings.values);
      if (statement.params.length) await conn.query(`SET ${statement.params.map((_, i) => `${mysqlRelationVariable(i)} = ?`).join(', ')}`, statement.params);
      await conn.query('START TRANSACTION READ ONLY');
      // At run time `.connection` is the callback-style connection (its typing says otherwise); it can stream.
      const core = conn.connection as unknown as CoreConnection;
      const bounds = { ...limits, maxBytes: this.maxResultBytes };
      const { killed, ...rows } = await streamRows(core, statement.sql, bounds, () => this.killQuery(core.threadId));
      // After a KILL QUERY the kill might still land on the connection's next statement: drop it.
      reusable = !killed;
      return rows;
    } catch (err) {
      reusable = isServerError(err) && !INTERRUPTED_ERRNOS.has(err.errno);
      throw translateError(err, limits.timeoutMs, this.maxTempDiskBytes);
    } finally {
      await this.release(conn, reusable);
    }
  }

  /**
   * A connection goes back to the pool only rolled back and reset (COM_RESET_CONNECTION: user
   * variables, temporary tables, prepared statements and session settings back to the defaults),
   * so nothing one question's SQL left in its session is seen by the next question's.
   */
  private async release(conn: PoolConnection, reusable: boolean): Promise<void> {
    if (reusable) {
      try {
        await conn.query('ROLLBACK');
        await resetSession(conn.connection as unknown as CoreConnection);
        conn.release();
        return;
      } catch {
        // fall through: a connection that cannot roll back or reset is not reused
      }
    }
    conn.destroy();
    // mysql2's destroy() only ends our side of the socket. A killed statement still sending a row
    // to a paused socket (the packet watchdog's) would block the server thread until its
    // net_write_timeout; closing the socket both ways ends its write at once.
    (conn.connection as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  }

  private async killQuery(threadId: number): Promise<void> {
    try {
      await this.killPool.query('KILL QUERY ?', [threadId]);
    } catch {
      // The statement may have ended on its own (unknown thread): nothing left to stop.
    }
  }
}

/**
 * mysql2's pooled connection listens for 'error' only once, and a connection reports there what
 * no command with a callback waits for: a socket lost while idle, a packet the server sends
 * unasked, a streamed query added after the connection failed. A second such error would be an
 * 'error' event with no listener, which ends the process: the worker. A running statement hears
 * of its connection's errors through streamRows; for any other, mysql2 has already acted (the
 * connection is closed and out of the pool), so there is nothing more to do here.
 */
function keepErrorsFromCrashing(connection: CoreConnection): void {
  connection.on('error', () => {});
}

function resetSession(connection: CoreConnection): Promise<void> {
  return new Promise((resolve, reject) => connection.reset((err) => (err ? reject(err) : resolve())));
}

function isServerError(err: unknown): err is Error & { errno: number } {
  return err instanceof Error && typeof (err as { errno?: unknown }).errno === 'number' && !(err as { fatal?: boolean }).fatal;
}

function translateError(err: unknown, timeoutMs: number, maxTempDiskBytes: number): unknown {
  if (!isServerError(err)) return err;
  if (INTERRUPTED_ERRNOS.has(err.errno)) return new QueryTimeout(timeoutMs);
  if (err.errno === ER_RECORD_FILE_FULL && /temporary|#sql/i.test(err.message)) {
    // Not the table of the user's data (the transaction is read-only): a temp table past tmp_disk_table_size.
    return new Error(
      `the statement needs more than ${Math.round(maxTempDiskBytes / 2 ** 20)} MB of temporary disk on the server (${err.message}; ` +
        'the worker bounds it with DECODEX_MYSQL_TEMP_DISK_MB): filter or aggregate before sorting or grouping',
    );
  }
  if (err.errno === ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION) {
    return new ReadOnlyViolation(`rejected by the server inside the read-only transaction: ${err.message}`);
  }
  return err;
}
