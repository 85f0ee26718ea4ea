/** What the loaders that copy a Spider SQLite database into another engine share. */
import type Database from 'better-sqlite3';
import { quoteIdentifier } from '../activities/database/sql-identifiers';
import { readSqliteSchema } from '../activities/database/sqlite-schema';
import type { SchemaInfo } from '../core/database/schema-types';
import { encodeSqlValue } from '../core/sql-value';

export type Kind = 'integer' | 'real' | 'text' | 'blob';

/**
 * What a Spider column really holds, for a loader into a typed engine: Spider's declared types
 * are loose (int columns holding text, text holding numbers), so the kind comes from SQLite's
 * storage classes of the values, the declared affinity only for an empty column; `maxBytes` is
 * the longest value (for key columns that need a bounded type).
 */
export function sqliteColumnKind(sqlite: Database.Database, table: string, column: string, declared: string): { kind: Kind; maxBytes: number } {
  const c = quoteIdentifier(column, 'sqlite');
  const rows = sqlite
    .prepare(`SELECT typeof(${c}), max(length(CAST(${c} AS BLOB))) FROM ${quoteIdentifier(table, 'sqlite')} WHERE ${c} IS NOT NULL GROUP BY 1`)
    .raw(true)
    .all() as [string, bigint | null][];
  const classes = new Set(rows.map((r) => r[0]));
  const maxBytes = Math.max(1, ...rows.map((r) => Number(r[1] ?? 0)));
  return { kind: classes.size > 0 ? storageKind(classes) : affinityKind(declared), maxBytes };
}

function storageKind(classes: Set<string>): Kind {
  if (classes.has('text')) return 'text';
  if (classes.has('blob')) return classes.size === 1 ? 'blob' : 'text';
  return classes.has('real') ? 'real' : 'integer';
}

/** SQLite's column affinity rules (https://sqlite.org/datatype3.html, 3.1). */
function affinityKind(declared: string): Kind {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (t.includes('BLOB') || t === '') return 'blob';
  return 'real';
}

/** The schema of a SQLite file opened directly (a loader's source), read as decodex reads it. */
export function readSqliteFileSchema(sqlite: Database.Database): Promise<SchemaInfo> {
  return readSqliteSchema(async (sql) =>
    sqlite
      .prepare(sql)
      .raw(true)
      .all()
      .map((r) => (r as unknown[]).map(encodeSqlValue)),
  );
}

/** Runs one DDL statement; a refusal is reported into `skipped` (with the server's reason), not thrown. */
export async function tryDdl(conn: { query(sql: string): Promise<unknown> }, ddl: string, what: string, skipped: string[]): Promise<boolean> {
  try {
    await conn.query(ddl);
    return true;
  } catch (err) {
    skipped.push(`${what}: ${(err as Error).message}`);
    return false;
  }
}
