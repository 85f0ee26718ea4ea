import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { databaseLabel } from '../../core/database-label';
import type { SqlRow } from '../../core/sql-value';
import { StatisticsFromSql } from './statistics-delegate';
import { checkExecuteOptions } from './execute-options';
import { withNamedRelations } from './named-relations';
import { readOnlyStatement } from './read-only-guard';
import { sharedSqliteProcessPool, type SqliteProcessPool } from './sqlite-process-pool';
import { readSqliteSchema } from './sqlite-schema';
import type { ExecuteOptions, TargetDatabase } from './target-database';
import type { SchemaInfo } from '../../core/database/schema-types';
import type { QueryResult } from '../../core/database/query-result';

export interface SqliteDatabaseOptions {
  /** Where statements run; default: the process-wide shared pool. */
  pool?: SqliteProcessPool;
  /** Time limit for introspection and statistics queries (they can scan big tables). Default 120 s. */
  internalTimeoutMs?: number;
}

/** Enough for any schema listing; an internal query never silently loses rows. */
const INTERNAL_MAX_ROWS = 10_000_000;

/**
 * A SQLite file as a TargetDatabase. Every statement, ours or generated, runs in a child
 * process of the pool on a read-only connection, so nothing blocks this process's event loop
 * and a runaway query is killed at its timeout. Generated SQL also passes the statement guard.
 */
export class SqliteDatabase extends StatisticsFromSql implements TargetDatabase {
  readonly dialect = 'sqlite' as const;
  readonly name: string;
  readonly path: string;
  private readonly pool: SqliteProcessPool;
  private readonly internalTimeoutMs: number;
  private closed = false;
  /** The schema last read, with the fingerprint it was read under (see schemaFingerprint). */
  private cachedSchema?: { fingerprint: string; schema: SchemaInfo };

  constructor(file: string, options: SqliteDatabaseOptions = {}) {
    super('sqlite');
    this.path = path.resolve(file);
    this.name = databaseLabel(this.path);
    this.pool = options.pool ?? sharedSqliteProcessPool();
    this.internalTimeoutMs = options.internalTimeoutMs ?? 120_000;
  }

  /**
   * Every step of a question asks for the schema; reading it is three queries over every table.
   * It is read again only when its fingerprint changed, and each caller gets its own copy.
   */
  async schema(): Promise<SchemaInfo> {
    const fingerprint = await this.schemaFingerprint();
    if (fingerprint !== undefined && this.cachedSchema?.fingerprint === fingerprint) return structuredClone(this.cachedSchema.schema);
    const schema = await readSqliteSchema((sql) => this.internalQuery(sql));
    // The cache keeps a copy of its own: what this caller does with its schema changes nobody else's.
    this.cachedSchema = fingerprint === undefined ? undefined : { fingerprint, schema: structuredClone(schema) };
    return schema;
  }

  /**
   * SQLite's schema cookie changes with every change of the schema, whoever makes it (WAL
   * included); the file's identity, size and time say whether it is still the same file (a file
   * copied over this path may carry the same cookie). Undefined when either cannot be read.
   */
  private async schemaFingerprint(): Promise<string | undefined> {
    try {
      const file = statSync(this.path);
      const [[cookie]] = await this.internalQuery('SELECT schema_version FROM pragma_schema_version');
      return `${String(cookie)}:${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}`;
    } catch {
      return undefined;
    }
  }

  /**
   * A file with SQLite's header can still be no database (corrupt, encrypted, truncated): SQLite
   * opens it lazily and fails at the first read. Reading the schema table once here makes such a
   * file a failure to open (which no retry fixes), not an error of every step after it.
   */
  async assertReadable(): Promise<void> {
    try {
      await this.internalQuery('SELECT count(*) FROM sqlite_master');
    } catch (err) {
      throw new Error(`${this.path} is not a readable SQLite database: ${(err as Error).message}`);
    }
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    this.checkOpen();
    checkExecuteOptions(options);
    const checked = readOnlyStatement(sql, 'sqlite');
    const started = performance.now();
    const statement = withNamedRelations(checked, options.relations ?? [], 'sqlite');
    const result = await this.pool.run({
      path: this.path,
      sql: statement.sql,
      params: statement.params,
      maxRows: options.maxRows,
      maxCellBytes: options.maxCellBytes,
      timeoutMs: options.timeoutMs,
    });
    return { ...result, elapsedMs: performance.now() - started };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pool.forget(this.path);
  }

  protected async internalQuery(sql: string): Promise<SqlRow[]> {
    this.checkOpen();
    const result = await this.pool.run({ path: this.path, sql, maxRows: INTERNAL_MAX_ROWS, timeoutMs: this.internalTimeoutMs });
    return result.rows;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`database ${this.name} is closed`);
  }
}
