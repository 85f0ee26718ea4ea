import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool, type PoolClient } from 'pg';
import type { DatabaseDocumentation } from '../../core/profiling/documentation';
import { parseServerUrl, redactDatabaseSpec } from '../../core/database-reference';
import type { SqlRow } from '../../core/sql-value';
import { executeGuarded } from './execute-options';
import type { SqlWithParams } from './named-relations';
import { postgresWritePrivileges } from './postgres-account';
import { backendKeyOf, sendCancelRequest } from './postgres-cancel';
import { readThroughCursor } from './postgres-cursor';
import { readFieldFunctions } from './postgres-field-functions';
import { guardMessages, MessageTooLarge, type MessageGuard } from './postgres-message-guard';
import { readPostgresSchema, type PostgresSchema } from './postgres-schema';
import { beginTransactionSql, postgresStartupOptions } from './postgres-session';
import { assertPostgresQuery } from './postgres-statement-check';
import { POSTGRES_TYPES } from './postgres-values';
import { StatisticsFromSql } from './statistics-delegate';
import { accountPolicyOf, checkOnConnect, maxResultBytesOf, type ServerDatabaseOptions } from './server-database-options';
import { QueryOutOfMemory, QueryTimeout, ReadOnlyViolation, type ExecuteOptions, type StatementRows, type TargetDatabase } from './target-database';
import type { SchemaInfo } from '../../core/database/schema-types';
import type { QueryResult } from '../../core/database/query-result';

export interface PostgresDatabaseOptions extends ServerDatabaseOptions {
  /**
   * Temp disk one statement may use (temp_file_limit, in kB; default 1 GB). Only a superuser, or
   * an account granted SET on the parameter (PostgreSQL 15: GRANT SET ON PARAMETER
   * temp_file_limit TO ...), may set it; otherwise the server's own limit applies, said in `warnings`.
   */
  tempFileLimitKb?: number;
}

export const DEFAULT_POSTGRES_TEMP_FILE_LIMIT_KB = 2 ** 20;
const INTERNAL_MAX_ROWS = 10_000_000;
/** How long past its deadline a statement may go on before decodex cancels it and drops its connection. */
const CLIENT_GRACE_MS = 2000;
/** How long a cancel request may take to reach the server before the connection is dropped anyway. */
const CANCEL_TIMEOUT_MS = 1000;

/** SQLSTATEs: statement_timeout (or a cancel), a write in a read-only transaction, out of memory, no privilege to set a parameter. */
const QUERY_CANCELED = '57014';
const READ_ONLY_SQL_TRANSACTION = '25006';
const OUT_OF_MEMORY = '53200';
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * A PostgreSQL database as a TargetDatabase. Generated SQL passes the statement guard and the
 * check on PostgreSQL's own parse tree (postgres-statement-check.ts), then runs in its own
 * BEGIN READ ONLY ... ROLLBACK with a statement_timeout, read through a cursor declared through
 * the extended protocol, one statement only (postgres-cursor.ts), so rows and bytes are bounded
 * as they are produced. Every message the server sends is measured before node-postgres buffers
 * it (postgres-message-guard.ts). A statement still running when its deadline and a grace
 * have passed is cancelled on the server before its connection is dropped. A connection goes
 * back to the pool only after ROLLBACK and DISCARD ALL (settings, temp tables, prepared
 * statements, advisory locks, LISTEN: nothing of one question reaches the next). Sessions start
 * with default_transaction_read_only on (postgres-session.ts).
 *
 * A read-only transaction stops writes to tables, DDL, nextval and FOR UPDATE, but not every
 * side effect (pg_read_file, set_config, advisory locks, pg_terminate_backend, dblink): the guard
 * refuses those, and an account that can only SELECT is the barrier below both.
 */
export class PostgresDatabase extends StatisticsFromSql implements TargetDatabase {
  readonly dialect = 'postgres' as const;
  readonly name: string;
  private readonly pool: Pool;
  private readonly internalTimeoutMs: number;
  private readonly maxResultBytes: number;
  /** Set once the account proved it may set temp_file_limit (checkTempFileLimit); until then, and if not, null. */
  private tempFileLimitKb: number | null = null;
  private readonly requestedTempFileLimitKb: number;
  private catalog: PostgresSchema | null = null;
  /** Names that, as a field `x.f`, PostgreSQL would read as a call (postgres-field-functions.ts); read by `connect`. */
  private fieldFunctions: ReadonlySet<string> = new Set();
  private closed = false;
  private readonly sockets = new Set<Socket>();
  private readonly server: { host: string; port: number };
  private readonly guards = new WeakMap<PoolClient, MessageGuard>();

  /** What the account may do beyond reading (empty: it can only read). */
  accountCanWrite: string[] = [];
  warnings: string[] = [];

  /** Opens the pool, reads the schema (for the search_path) and checks the account; a wrong URL or refused login fails here. */
  static async connect(url: string, options: PostgresDatabaseOptions = {}): Promise<PostgresDatabase> {
    accountPolicyOf(options);
    const db = new PostgresDatabase(url, options);
    const check = { where: redactDatabaseSpec(url), setting: 'DECODEX_POSTGRES_ACCOUNT', readme: 'A read-only PostgreSQL account' };
    await checkOnConnect(db, check, options, async () => {
      await db.checkTempFileLimit();
      db.catalog = await readPostgresSchema((sql) => db.internalQuery(sql));
      db.fieldFunctions = await readFieldFunctions((sql) => db.internalQuery(sql));
      return postgresWritePrivileges((sql) => db.internalQuery(sql));
    });
    if (db.catalog!.shadowed.length) {
      db.warnings.push(`tables left out because an earlier schema on the search_path has one of the same name: ${db.catalog!.shadowed.join(', ')}`);
    }
    return db;
  }

  private constructor(url: string, options: PostgresDatabaseOptions) {
    super('postgres');
    const { host, port, user, password, database } = parseServerUrl(url);
    this.name = `${host}:${port}/${database}`;
    this.internalTimeoutMs = options.internalTimeoutMs ?? 120_000;
    this.maxResultBytes = maxResultBytesOf(options);
    this.requestedTempFileLimitKb = options.tempFileLimitKb ?? DEFAULT_POSTGRES_TEMP_FILE_LIMIT_KB;
    this.server = { host: host.replace(/^\[(.*)\]$/, '$1'), port };
    this.pool = new Pool({
      ...this.server,
      user,
      // A function, so the password is looked up nowhere else (PGPASSWORD, ~/.pgpass): the worker's configuration is the one source.
      password: () => password,
      stream: () => this.track(new Socket()),
      database,
      max: options.connectionLimit ?? 4,
      options: postgresStartupOptions(this.internalTimeoutMs + CLIENT_GRACE_MS),
      types: POSTGRES_TYPES,
    });
    // An idle connection the server dropped must not crash the worker; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor one that drops while checked out (or that the hang timer below destroys): its client
    // emits 'error' besides failing its query, and the query's failure is what `run` handles.
    // The message guard goes on the stream node-postgres reads (the TLS one, under TLS), at a message boundary.
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
      this.guards.set(client, guardMessages(client.connection.stream, this.maxResultBytes));
    });
  }

  async schema(): Promise<SchemaInfo> {
    return (this.catalog ?? (this.catalog = await readPostgresSchema((sql) => this.internalQuery(sql)))).schema;
  }

  /** COMMENT ON tables and columns, read with the schema. */
  async documentation(): Promise<DatabaseDocumentation | null> {
    await this.schema();
    return this.catalog!.documentation;
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    return executeGuarded(sql, options, 'postgres', async (statement, limits) => {
      // The text that is sent, decodex's named relations included, as PostgreSQL will read it.
      await assertPostgresQuery(statement.sql, this.fieldFunctions);
      return this.run(statement, limits);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
    for (const socket of this.sockets) socket.destroy();
  }

  /**
   * Every socket the pool opens, so `close` can end one pg abandoned: when a server asks for a
   * password the client does not have, pg fails the connect but leaves the socket open, and the
   * server's backend waits in authentication (60 s, authentication_timeout), holding up even a
   * DROP DATABASE.
   */
  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  protected async internalQuery(sql: string): Promise<SqlRow[]> {
    return (await this.run({ sql, params: [] }, { timeoutMs: this.internalTimeoutMs, maxRows: INTERNAL_MAX_ROWS })).rows;
  }

  /** Whether this account may bound temp disk per statement; if not, the server's own temp_file_limit is all there is, and the user is told. */
  private async checkTempFileLimit(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query(beginTransactionSql({ timeoutMs: this.internalTimeoutMs, searchPath: [], tempFileLimitKb: this.requestedTempFileLimitKb }));
      await client.query('ROLLBACK');
      client.release();
      this.tempFileLimitKb = this.requestedTempFileLimitKb;
    } catch (err) {
      if ((err as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) {
        client.release(true);
        throw err;
      }
      await client.query('ROLLBACK');
      const [[limit]] = (await client.query<string[]>({ text: "SELECT current_setting('temp_file_limit')", rowMode: 'array' })).rows;
      client.release();
      this.warnings.push(
        `this account may not set temp_file_limit, so a statement's temp disk is bounded only by the server's own temp_file_limit (${limit}); ` +
          'a superuser can allow it with GRANT SET ON PARAMETER temp_file_limit TO <account> (PostgreSQL 15+)',
      );
    }
  }

  /** One statement in its own read-only transaction, with its time limit and the row and byte bounds. */
  private async run(statement: SqlWithParams, limits: ExecuteOptions): Promise<StatementRows> {
    const client = await this.pool.connect();
    const deadline = performance.now() + limits.timeoutMs;
    // The server enforces the deadline (statement_timeout). Past it and a grace, the statement
    // turned its timeout off or the network hangs: cancel it on the server, then drop the connection.
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      void this.cancel(client).finally(() => client.connection.stream.destroy());
    }, limits.timeoutMs + CLIENT_GRACE_MS);
    let reusable = false;
    try {
      this.guards.get(client)?.startStatement();
      const searchPath = this.catalog?.searchPath ?? [];
      await client.query(beginTransactionSql({ timeoutMs: limits.timeoutMs, searchPath, tempFileLimitKb: this.tempFileLimitKb }));
      const bounds = { maxRows: limits.maxRows, maxBytes: this.maxResultBytes, deadline };
      const rows = await readThroughCursor(client, statement.sql, statement.params, bounds);
      reusable = true;
      return rows;
    } catch (err) {
      if (hung) throw new QueryTimeout(limits.timeoutMs);
      reusable = isServerError(err) || err instanceof QueryOutOfMemory;
      // The connection is gone (the message guard dropped it, or it broke): its backend may still
      // be computing what nobody will read.
      if (!reusable) await this.cancel(client);
      throw translateError(err, limits.timeoutMs);
    } finally {
      clearTimeout(timer);
      await release(client, reusable && !hung);
    }
  }

  /** Cancels what the client's backend is running (postgres-cancel.ts); false when it could not be asked. */
  private async cancel(client: PoolClient): Promise<boolean> {
    const key = backendKeyOf(client);
    return key !== null && (await sendCancelRequest(this.server, key, CANCEL_TIMEOUT_MS));
  }
}

/**
 * A connection goes back to the pool only rolled back and discarded (DISCARD ALL: session
 * settings back to the startup defaults, temp tables, prepared statements, advisory locks,
 * LISTEN); one that cannot be is dropped.
 */
async function release(client: PoolClient, reusable: boolean): Promise<void> {
  if (reusable) {
    try {
      await client.query('ROLLBACK');
      await client.query('DISCARD ALL');
      client.release();
      return;
    } catch {
      // fall through
    }
  }
  client.release(true);
}

function isServerError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

function translateError(err: unknown, timeoutMs: number): unknown {
  if (err instanceof MessageTooLarge) return new QueryOutOfMemory(err.message);
  // Past the message guard only if the bound is set above V8's longest string (about 512 MB).
  if ((err as { code?: unknown } | null)?.code === 'ERR_STRING_TOO_LONG') return new QueryOutOfMemory(`out of memory: ${(err as Error).message}`);
  if (!isServerError(err)) return err;
  if (err.code === QUERY_CANCELED) return new QueryTimeout(timeoutMs);
  if (err.code === READ_ONLY_SQL_TRANSACTION) return new ReadOnlyViolation(`rejected by the server inside the read-only transaction: ${err.message}`);
  if (err.code === OUT_OF_MEMORY) return new QueryOutOfMemory(`out of memory: ${err.message}`);
  return err;
}
