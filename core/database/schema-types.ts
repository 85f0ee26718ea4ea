/** The shape of a target database's schema: shared by activities (introspection) and pure code (prompts, linking). */
/** The SQL dialect of a target database; decides quoting, parsing and prompt wording. */
export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export interface ColumnInfo {
  name: string;
  /** Declared type as written in the schema (may be empty in SQLite). */
  type: string;
  nullable: boolean;
  primaryKey: boolean;
}

export interface ForeignKeyInfo {
  fromTable: string;
  fromColumns: string[];
  toTable: string;
  toColumns: string[];
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  foreignKeys: ForeignKeyInfo[];
}

export interface SchemaInfo {
  dialect: Dialect;
  tables: TableInfo[];
}

/** The dialect as prompts and messages name it. */
export function dialectName(dialect: Dialect): string {
  return { sqlite: 'SQLite', mysql: 'MySQL', postgres: 'PostgreSQL' }[dialect];
}
