import type { DatabaseDocumentation } from '../../core/profiling/documentation';
import type { NamedRelation } from './named-relations';
import type { SqlValue } from '../../core/sql-value';
import type { QueryResult } from '../../core/database/query-result';

import type { Dialect, SchemaInfo } from '../../core/database/schema-types';

export interface ExecuteOptions {
  /** Wall-clock limit; the query is stopped (not merely abandoned) when it runs out. */
  timeoutMs: number;
  /** At most this many rows are returned; `truncated` says when more existed. */
  maxRows: number;
  /** Rows decodex makes available to the query by name (DecoSearch's materialized upstream results). */
  relations?: NamedRelation[];
  /**
   * Text and BLOB cells are cut to about this many bytes as they are read (core/result-bytes.ts
   * cutCellWhileReading), before rows count against the engine's memory bound. Absent: whole cells
   * (evaluation compares whole results).
   */
  maxCellBytes?: number;
}

/** What a statement produced, before timing is added: the engines' common internal result. */
export type StatementRows = Omit<QueryResult, 'elapsedMs'>;

export interface ValueCount {
  value: SqlValue;
  count: number;
}

export interface ColumnStats {
  rowCount: number;
  nullCount: number;
  distinctCount: number;
  min: SqlValue;
  max: SqlValue;
}

/**
 * One target database (the user's data). Every method only reads; `execute` runs
 * untrusted SQL and must reject anything that could write, before it reaches the engine.
 */
export interface TargetDatabase {
  readonly dialect: Dialect;
  /** A stable identifier for search attributes and artifact keys (file name or host/db). */
  readonly name: string;
  /** The file the database was opened from, for an engine that keeps it in one (SQLite); absent for a server. */
  readonly path?: string;
  /** What the user should know about how the database was opened (e.g. a MySQL account that can write); shown in the run's trace. */
  readonly warnings?: readonly string[];
  schema(): Promise<SchemaInfo>;
  /** Documentation the database itself holds (PostgreSQL's COMMENT ON), used when no documentation file is given. */
  documentation?(): Promise<DatabaseDocumentation | null>;
  rowCount(table: string): Promise<number>;
  columnStats(table: string, column: string): Promise<ColumnStats>;
  mostFrequentValues(table: string, column: string, limit: number): Promise<ValueCount[]>;
  sampleValues(table: string, column: string, limit: number): Promise<SqlValue[]>;
  execute(sql: string, options: ExecuteOptions): Promise<QueryResult>;
  close(): Promise<void>;
}

/** Thrown for SQL that tries to change anything; never retried. */
export class ReadOnlyViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadOnlyViolation';
  }
}

/** Thrown when a query is stopped at its timeout. */
export class QueryTimeout extends Error {
  constructor(public readonly timeoutMs: number) {
    super(`query stopped after its ${timeoutMs} ms timeout`);
    this.name = 'QueryTimeout';
  }
}

/**
 * Thrown when a statement needs more memory than its bound (the SQLite query process's data
 * limit, or the bytes of rows a result may hold): the statement is stopped, the worker lives on.
 */
export class QueryOutOfMemory extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryOutOfMemory';
  }
}
