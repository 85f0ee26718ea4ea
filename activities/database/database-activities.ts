import { boundRowBytes, type ResultByteLimits } from '../../core/result-bytes';
import { renderSchemaDdl } from '../../core/schema-text';
import type { DatabaseRegistry } from './database-registry';
import { QueryTimeout, ReadOnlyViolation } from './target-database';
import type { Dialect } from '../../core/database/schema-types';
import type { QueryResult } from '../../core/database/query-result';
import type { BoundedQueryResult, ExecuteSqlOutput } from '../../core/question/sql-execution';

export interface DatabaseDescription {
  name: string;
  dialect: Dialect;
  tableCount: number;
  columnCount: number;
  schemaDdl: string;
}

export interface ExecuteSqlInput extends ResultByteLimits {
  database: string;
  sql: string;
  timeoutMs: number;
  maxRows: number;
}

/** An engine's error message can quote the statement (or a huge literal of it); history keeps the start. */
const MAX_ERROR_CHARS = 2000;

function errorText(err: unknown): string {
  const message = (err as Error).message ?? String(err);
  return message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}… (${message.length} characters)` : message;
}

/** The result with only its first `kept` rows (and the whole-valued REAL cells among them). */
function keepRows(result: QueryResult, kept: number, truncated: boolean): QueryResult {
  const { integralReals, ...rest } = result;
  const keptReals = integralReals?.filter(([r]) => r < kept);
  return { ...rest, rows: result.rows.slice(0, kept), truncated, ...(keptReals?.length ? { integralReals: keptReals } : {}) };
}

/** The first `maxRows` rows of a result read with a larger row limit: what a run with `maxRows` returns. */
export function firstRows(result: QueryResult, maxRows: number): QueryResult {
  return result.rows.length <= maxRows ? result : keepRows(result, maxRows, true);
}

/** Cells and rows past the byte limits are cut, so a result never makes a payload Temporal refuses. */
export function boundResult(result: QueryResult, limits: ResultByteLimits): BoundedQueryResult {
  const { rows, truncation } = boundRowBytes(result.rows, limits);
  if (!truncation) return result;
  const kept = keepRows(result, rows.length, result.truncated || truncation.droppedRows > 0);
  return { ...kept, rows, byteLimit: truncation };
}

export function createDatabaseActivities(databases: DatabaseRegistry) {
  const openOrFail = (reference: string) => databases.openOrFail(reference);

  return {
    async describeDatabase(input: { database: string }): Promise<DatabaseDescription> {
      const db = await openOrFail(input.database);
      const schema = await db.schema();
      return {
        name: db.name,
        dialect: db.dialect,
        tableCount: schema.tables.length,
        columnCount: schema.tables.reduce((n, t) => n + t.columns.length, 0),
        schemaDdl: renderSchemaDdl(schema),
      };
    },

    async executeSql(input: ExecuteSqlInput): Promise<ExecuteSqlOutput> {
      const db = await openOrFail(input.database);
      try {
        const result = await db.execute(input.sql, { timeoutMs: input.timeoutMs, maxRows: input.maxRows, maxCellBytes: input.maxCellBytes });
        return { ok: true, result: boundResult(result, input) };
      } catch (err) {
        if (err instanceof QueryTimeout) return { ok: false, error: { kind: 'timeout', message: err.message } };
        if (err instanceof ReadOnlyViolation) return { ok: false, error: { kind: 'read_only_violation', message: errorText(err) } };
        return { ok: false, error: { kind: 'sql_error', message: errorText(err) } };
      }
    },
  };
}
