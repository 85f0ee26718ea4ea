import type { SqlValue } from '../../core/sql-value';
import type { StatementRows } from './target-database';

/** Messages between SqliteProcessPool (parent) and sqlite-query-process (child), over IPC as JSON. */

export interface RunStatementRequest {
  type: 'run';
  id: number;
  /** SQLite file; the child keeps a read-only connection to it open for later requests. */
  path: string;
  sql: string;
  params: SqlValue[];
  maxRows: number;
  /** Bytes of rows past which the statement fails (the process's memory bound); absent when unbounded. */
  maxBytes?: number;
  /** Cells are cut to about this as they are read (ExecuteOptions.maxCellBytes). */
  maxCellBytes?: number;
  /** The parent kills the process at this timeout; the process's own watchdog a little later. */
  timeoutMs: number;
}

/** Close the child's cached connection to `path` (the database was closed). */
export interface ForgetPathRequest {
  type: 'forget';
  path: string;
}

export type ParentMessage = RunStatementRequest | ForgetPathRequest;

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: StatementRows }
  | { type: 'error'; id: number; error: { name: string; message: string; code?: string } };
