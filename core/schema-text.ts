import type { SchemaInfo, TableInfo } from './database/schema-types';
import { isMysqlReservedWord } from './mysql-reserved-words';
import { isSqliteKeyword } from './sql-analysis/sqlite-keywords';

/**
 * The schema as the model reads it: one CREATE TABLE per table with declared types, primary and
 * foreign keys. Identifiers are quoted only when they need it (see `quote`), so prompts stay close
 * to the DDL a developer would write.
 */
export function renderSchemaDdl(schema: SchemaInfo, notes?: ColumnNotes): string {
  return schema.tables.map((t) => renderTable(t, schema.dialect, notes)).join('\n\n');
}

/** A short comment per column (`table.column` lower-cased → text): examples, meaning, as CHESS-style prompts show them. */
export type ColumnNotes = Map<string, string>;

/**
 * A name as the SQL in the answer must write it: bare when it is a plain word, quoted when it holds
 * anything else (spaces, quotes, unicode, a leading digit) or is a keyword of either dialect
 * (`order`, `group`, `rank`), so a model copying the schema writes valid SQL.
 */
export function quote(name: string, dialect: SchemaInfo['dialect']): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isSqliteKeyword(name) && !isMysqlReservedWord(name)) return name;
  return dialect === 'mysql' ? '`' + name.replace(/`/g, '``') + '`' : '"' + name.replace(/"/g, '""') + '"';
}

function renderTable(table: TableInfo, dialect: SchemaInfo['dialect'], notes?: ColumnNotes): string {
  const q = (n: string) => quote(n, dialect);
  const lines = table.columns.map((c) => {
    const note = notes?.get(`${table.name}.${c.name}`.toLowerCase());
    return `  ${q(c.name)}${c.type ? ' ' + c.type : ''}${note ? ` /* ${note.replace(/\*\//g, '* /')} */` : ''}`;
  });
  if (table.primaryKey.length) lines.push(`  PRIMARY KEY (${table.primaryKey.map(q).join(', ')})`);
  for (const fk of table.foreignKeys) {
    lines.push(`  FOREIGN KEY (${fk.fromColumns.map(q).join(', ')}) REFERENCES ${q(fk.toTable)}(${fk.toColumns.map(q).join(', ')})`);
  }
  return `CREATE TABLE ${q(table.name)} (\n${lines.join(',\n')}\n);`;
}

/**
 * One line per table, `table(column, column, ...)`, with its foreign keys: enough to choose
 * tables (DecoSearch's table selection), at a fraction of the DDL's tokens.
 */
export function renderSchemaOutline(schema: SchemaInfo): string {
  return schema.tables
    .map((t) => {
      const q = (n: string) => quote(n, schema.dialect);
      const fks = t.foreignKeys.map((fk) => `${fk.fromColumns.map(q).join(', ')} → ${q(fk.toTable)}`);
      return `${q(t.name)}(${t.columns.map((c) => q(c.name)).join(', ')})${fks.length ? `; references: ${fks.join('; ')}` : ''}`;
    })
    .join('\n');
}
