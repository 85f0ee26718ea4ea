import type { SqlRow } from '../../core/sql-value';
import type { InternalQuery } from './column-statistics';
import type { ColumnInfo, ForeignKeyInfo, SchemaInfo, TableInfo } from '../../core/database/schema-types';

/** sqlite_master (not sqlite_schema) works on every SQLite version; rowid order is declaration order. */
function fromUserTables(join = ''): string {
  return `FROM sqlite_master AS m ${join} WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`;
}

/**
 * Reads tables, columns (declared types), primary keys and foreign keys of a SQLite database
 * with three queries over the table-valued pragma functions, all in declaration order.
 * Declared types come as SQLite reports them: as written, except that the standard names
 * (INT, INTEGER, REAL, TEXT, BLOB, ANY) are upper-cased (`int` -> `INT`).
 */
export async function readSqliteSchema(query: InternalQuery): Promise<SchemaInfo> {
  const tableRows = await query(`SELECT m.name ${fromUserTables()} ORDER BY m.rowid`);
  const columnRows = await query(
    `SELECT m.name, p.name, p.type, p."notnull", p.pk ${fromUserTables('JOIN pragma_table_info(m.name) AS p')} ORDER BY m.rowid, p.cid`,
  );
  // pragma_foreign_key_list numbers constraints from the last declared one: id DESC is declaration order.
  const fkRows = await query(
    `SELECT m.name, f.id, f."table", f."from", f."to" ${fromUserTables('JOIN pragma_foreign_key_list(m.name) AS f')} ORDER BY m.rowid, f.id DESC, f.seq`,
  );

  const tables = new Map<string, TableInfo>();
  for (const [name] of tableRows) tables.set(String(name), { name: String(name), columns: [], primaryKey: [], foreignKeys: [] });

  const pkPositions = new Map<string, { column: string; position: number }[]>();
  for (const [table, name, type, notNull, pk] of columnRows) {
    const t = tables.get(String(table))!;
    const primaryKey = Number(pk) > 0;
    // A primary key column is reported NOT NULL although SQLite (outside INTEGER PRIMARY KEY) would take one.
    const column: ColumnInfo = { name: String(name), type: String(type ?? ''), nullable: Number(notNull) === 0 && !primaryKey, primaryKey };
    t.columns.push(column);
    if (primaryKey) pkPositions.set(t.name, [...(pkPositions.get(t.name) ?? []), { column: column.name, position: Number(pk) }]);
  }
  for (const [table, positions] of pkPositions) {
    tables.get(table)!.primaryKey = positions.sort((a, b) => a.position - b.position).map((p) => p.column);
  }

  for (const fk of groupForeignKeys(fkRows)) {
    const resolved = resolveForeignKey(fk, tables);
    if (resolved) tables.get(fk.fromTable)!.foreignKeys.push(resolved);
  }
  return { dialect: 'sqlite', tables: [...tables.values()] };
}

/** A foreign key as declared: target names in any case, target columns possibly omitted (null). */
interface DeclaredForeignKey {
  fromTable: string;
  fromColumns: string[];
  toTable: string;
  toColumns: (string | null)[];
}

function groupForeignKeys(rows: SqlRow[]): DeclaredForeignKey[] {
  const byKey = new Map<string, DeclaredForeignKey>();
  for (const [table, id, toTable, from, to] of rows) {
    const key = `${table}\u0000${id}`;
    let fk = byKey.get(key);
    if (!fk) byKey.set(key, (fk = { fromTable: String(table), fromColumns: [], toTable: String(toTable), toColumns: [] }));
    fk.fromColumns.push(String(from));
    fk.toColumns.push(to === null ? null : String(to));
  }
  return [...byKey.values()];
}

/**
 * SQLite accepts foreign keys that name the target table in another case, leave out the target
 * columns (meaning its primary key), or even name a column that does not exist (two Spider
 * databases). Names are resolved the way SQLite resolves them, case-insensitively; missing or
 * unknown target columns fall back to the target's primary key when its arity matches. A key
 * that still points nowhere is left out: it cannot be joined on.
 */
function resolveForeignKey(fk: DeclaredForeignKey, tables: Map<string, TableInfo>): ForeignKeyInfo | null {
  const target = findByName([...tables.values()], fk.toTable);
  const source = tables.get(fk.fromTable)!;
  if (!target) return null;
  const fromColumns = fk.fromColumns.map((c) => findByName(source.columns, c)?.name);
  let toColumns = fk.toColumns.map((c) => (c === null ? undefined : findByName(target.columns, c)?.name));
  if (toColumns.some((c) => c === undefined) && target.primaryKey.length === fromColumns.length) toColumns = target.primaryKey;
  if ([...fromColumns, ...toColumns].some((c) => c === undefined)) return null;
  return { fromTable: source.name, fromColumns: fromColumns as string[], toTable: target.name, toColumns: toColumns as string[] };
}

function findByName<T extends { name: string }>(items: T[], name: string): T | undefined {
  return items.find((i) => i.name === name) ?? items.find((i) => i.name.toLowerCase() === name.toLowerCase());
}
