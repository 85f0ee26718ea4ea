import type { ResultByteLimits } from '../../core/result-bytes';
import { renderSchemaDdl } from '../../core/schema-text';
import type { DatabaseRegistry } from './database-registry';
import { QueryTimeout, ReadOnlyViolation } from './target-database';
import type { Dialect } from '../../core/database/schema-types';
import type { ExecuteSqlOutput } from '../../core/question/sql-execution';
import { answerResult } from './answer-result';

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
        return { ok: true, result: answerResult(result, input) };
      } catch (err) {
        if (err instanceof QueryTimeout) return { ok: false, error: { kind: 'timeout', message: err.message } };
        if (err instanceof ReadOnlyViolation) return { ok: false, error: { kind: 'read_only_violation', message: errorText(err) } };
        return { ok: false, error: { kind: 'sql_error', message: errorText(err) } };
      }
    },
  };
}
