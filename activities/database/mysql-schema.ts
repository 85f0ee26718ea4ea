import type { InternalQuery } from './column-statistics';
import type { ForeignKeyInfo, SchemaInfo, TableInfo } from '../../core/database/schema-types';

const IN_THIS_DATABASE = 'TABLE_SCHEMA = DATABASE()';

/** Tables (by name), columns (declaration order, full declared type), primary and foreign keys from information_schema. */
export async function readMysqlSchema(query: InternalQuery): Promise<SchemaInfo> {
  const tableRows = await query(`SELECT TABLE_NAME FROM information_schema.TABLES WHERE ${IN_THIS_DATABASE} AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`);
  const columnRows = await query(
    `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE ${IN_THIS_DATABASE} ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const keyRows = await query(
    `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE ` +
      `WHERE ${IN_THIS_DATABASE} AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_SCHEMA = DATABASE()) ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
  );

  const tables = new Map<string, TableInfo>();
  for (const [name] of tableRows) tables.set(String(name), { name: String(name), columns: [], primaryKey: [], foreignKeys: [] });
  for (const [table, name, type, nullable] of columnRows) {
    tables.get(String(table))?.columns.push({ name: String(name), type: String(type), nullable: nullable === 'YES', primaryKey: false });
  }
  const foreignKeys = new Map<string, ForeignKeyInfo>();
  for (const [tableName, constraint, column, toTable, toColumn] of keyRows) {
    const table = tables.get(String(tableName));
    if (!table) continue;
    if (constraint === 'PRIMARY') {
      table.primaryKey.push(String(column));
      table.columns.find((c) => c.name === column)!.primaryKey = true;
      continue;
    }
    const key = `${tableName}\u0000${constraint}`;
    let fk = foreignKeys.get(key);
    if (!fk) {
      foreignKeys.set(key, (fk = { fromTable: table.name, fromColumns: [], toTable: String(toTable), toColumns: [] }));
      table.foreignKeys.push(fk);
    }
    fk.fromColumns.push(String(column));
    fk.toColumns.push(String(toColumn));
  }
  return { dialect: 'mysql', tables: [...tables.values()] };
}
