import type { DatabaseDocumentation } from '../../core/profiling/documentation';
import type { InternalQuery } from './column-statistics';
import type { ForeignKeyInfo, SchemaInfo, TableInfo } from '../../core/database/schema-types';

export interface PostgresSchema {
  schema: SchemaInfo;
  /** The search_path every session uses, so a bare table name finds its table: `public` first, then the other schemas by name. */
  searchPath: string[];
  /** Tables a later schema holds under a name an earlier one already has: unreachable by bare name, so left out. */
  shadowed: string[];
  /** Table and column comments (COMMENT ON), the developer's own documentation; null when there are none. */
  documentation: DatabaseDocumentation | null;
}

/**
 * Reads the schema from pg_catalog: every schema but PostgreSQL's own that the account may use,
 * only tables it may SELECT (one it cannot read cannot be profiled or queried). Tables are named
 * by their bare name, as on the other engines and as an LLM writes them; the session's
 * search_path resolves it, and a table whose name an earlier schema already uses is left out
 * (and reported). Columns in declaration order with their declared type; primary and foreign
 * keys in key order.
 */
export async function readPostgresSchema(query: InternalQuery): Promise<PostgresSchema> {
  const tableRows = await query(
    `SELECT c.oid::int8, n.nspname, c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ` +
      `WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname NOT IN ('pg_catalog', 'information_schema') ` +
      `AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%' ` +
      `AND has_schema_privilege(n.oid, 'USAGE') AND has_table_privilege(c.oid, 'SELECT') ` +
      `ORDER BY n.nspname <> 'public', n.nspname, c.relname`,
  );
  const searchPath: string[] = [];
  const shadowed: string[] = [];
  const byOid = new Map<string, TableInfo>();
  const byName = new Map<string, string>(); // table name -> its schema
  const documentation: DatabaseDocumentation = { tables: {} };
  for (const [oid, schema, name, comment] of tableRows.map((r) => r.map((v) => (v === null ? null : String(v))))) {
    if (!searchPath.includes(schema!)) searchPath.push(schema!);
    const first = byName.get(name!);
    if (first !== undefined) {
      shadowed.push(`${schema}.${name} (shadowed by ${first}.${name})`);
      continue;
    }
    byName.set(name!, schema!);
    byOid.set(oid!, { name: name!, columns: [], primaryKey: [], foreignKeys: [] });
    if (comment) documentation.tables[name!] = { description: comment, columns: {} };
  }
  const oids = `ARRAY[${[...byOid.keys()].join(', ') || 'NULL'}]::oid[]`;

  const columnRows = await query(
    `SELECT a.attrelid::int8, a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, col_description(a.attrelid, a.attnum) ` +
      `FROM pg_attribute a WHERE a.attrelid = ANY (${oids}) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum`,
  );
  for (const [oid, name, type, nullable, comment] of columnRows) {
    const table = byOid.get(String(oid))!;
    table.columns.push({ name: String(name), type: String(type), nullable: nullable === 1, primaryKey: false });
    if (comment !== null) (documentation.tables[table.name] ??= { columns: {} }).columns[String(name)] = { description: String(comment) };
  }

  // One row per key column, in key order; a foreign key's target must be a table read above.
  const keyRows = await query(
    `SELECT k.conrelid::int8, k.oid::int8, k.contype, a.attname, k.confrelid::int8, fa.attname ` +
      `FROM pg_constraint k CROSS JOIN LATERAL unnest(k.conkey, COALESCE(k.confkey, k.conkey)) WITH ORDINALITY AS u(col, fcol, pos) ` +
      `JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.col ` +
      `LEFT JOIN pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = u.fcol ` +
      `WHERE k.contype IN ('p', 'f') AND k.conrelid = ANY (${oids}) ORDER BY k.conrelid, k.contype, k.conname, u.pos`,
  );
  const foreignKeys = new Map<string, ForeignKeyInfo>();
  for (const [oid, constraint, kind, column, targetOid, targetColumn] of keyRows.map((r) => r.map((v) => (v === null ? null : String(v))))) {
    const table = byOid.get(oid!)!;
    if (kind === 'p') {
      table.primaryKey.push(column!);
      table.columns.find((c) => c.name === column)!.primaryKey = true;
      continue;
    }
    const target = byOid.get(targetOid!);
    if (!target) continue; // a table in a schema the account cannot read, or shadowed
    let fk = foreignKeys.get(constraint!);
    if (!fk) {
      foreignKeys.set(constraint!, (fk = { fromTable: table.name, fromColumns: [], toTable: target.name, toColumns: [] }));
      table.foreignKeys.push(fk);
    }
    fk.fromColumns.push(column!);
    fk.toColumns.push(targetColumn!);
  }
  const tables = [...byOid.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    schema: { dialect: 'postgres', tables },
    searchPath,
    shadowed,
    documentation: Object.keys(documentation.tables).length ? documentation : null,
  };
}
