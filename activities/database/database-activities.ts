import { renderSchemaDdl } from '../../core/schema-text';
import type { DatabaseRegistry } from './database-registry';
import { QueryTimeout, ReadOnlyViolation, type Dialect, type QueryResult } from './target-database';

export interface DatabaseDescription {
  name: string;
  dialect: Dialect;
  tableCount: number;
  columnCount: number;
  schemaDdl: string;
}

export interface ExecuteSqlInput {
  database: string;
  sql: string;
  timeoutMs: number;
  maxRows: number;
}

/** A failed execution is an answer about the SQL, not a failure of the activity: it is data. */
export type ExecuteSqlOutput =
  { ok: true; result: QueryResult } | { ok: false; error: { kind: 'timeout' | 'read_only_violation' | 'sql_error'; message: string } };

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
        const result = await db.execute(input.sql, { timeoutMs: input.timeoutMs, maxRows: input.maxRows });
        return { ok: true, result };
      } catch (err) {
        if (err instanceof QueryTimeout) return { ok: false, error: { kind: 'timeout', message: err.message } };
        if (err instanceof ReadOnlyViolation) return { ok: false, error: { kind: 'read_only_violation', message: err.message } };
        return { ok: false, error: { kind: 'sql_error', message: (err as Error).message } };
      }
    },
  };
}

export type DatabaseActivities = ReturnType<typeof createDatabaseActivities>;
