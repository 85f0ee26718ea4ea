import path from 'node:path';
import Database from 'better-sqlite3';
import mysql, { type Connection } from 'mysql2/promise';
import { quoteIdentifier } from '../../activities/database/sql-identifiers';
import type { ForeignKeyInfo, TableInfo } from '../../core/database/schema-types';
import { readSqliteFileSchema, sqliteColumnKind, tryDdl } from '../../devkit/spider-copy';

export interface LoadedSpiderDatabase {
  /** `mysql://.../<database>`: the server URL with the new database as its path. */
  url: string;
  database: string;
  /** Foreign keys the server accepted (it refuses some Spider ones, e.g. text -> int). */
  foreignKeys: ForeignKeyInfo[];
  /** Constraints that could not be created, with the server's reason. */
  skipped: string[];
}

const BATCH_ROWS = 500;
/** InnoDB index keys are limited to 3072 bytes: 768 four-byte characters. */
const MAX_KEY_CHARS = 768;

/**
 * Copies a Spider SQLite database (schema and every row) into a new MySQL/MariaDB database of
 * the same name (or `options.database`), replacing one left by an earlier run. Spider's declared types are loose (int
 * columns holding text, text holding numbers), so each column's type comes from the values it
 * actually holds, the way SQLite stored them; the declared type decides only for empty columns.
 * Strings use a binary, no-pad collation so `=`, ORDER BY and GROUP BY treat text as SQLite does.
 * Keys are added after the rows: a constraint the server refuses is reported, not fatal.
 */
export async function loadSpiderDatabase(sqlitePath: string, serverUrl: string, options: { database?: string } = {}): Promise<LoadedSpiderDatabase> {
  const database = options.database ?? path.basename(sqlitePath).replace(/\.sqlite$/, '');
  const sqlite = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  sqlite.defaultSafeIntegers(true);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const conn = await mysql.createConnection({ uri: serverUrl.replace(/^mariadb:/, 'mysql:'), supportBigNumbers: true, bigNumberStrings: true });
  try {
    const schema = await readSqliteFileSchema(sqlite);
    const [[version]] = (await conn.query({ sql: 'SELECT VERSION()', rowsAsArray: true }))[0] as string[][];
    const collation = /mariadb/i.test(version) ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
    await conn.query(`DROP DATABASE IF EXISTS ${id(database)}`);
    await conn.query(`CREATE DATABASE ${id(database)} CHARACTER SET utf8mb4 COLLATE ${collation}`);
    await conn.query(`USE ${id(database)}`);

    const keyColumns = keyColumnsByTable(schema.tables);
    for (const table of schema.tables) {
      const columns = table.columns.map((c) => `${id(c.name)} ${mysqlType(sqlite, table.name, c.name, c.type, keyColumns.get(table.name)!.has(c.name))} NULL`);
      await conn.query(`CREATE TABLE ${id(table.name)} (${columns.join(', ')}) ENGINE=InnoDB`);
      await copyRows(sqlite, conn, table);
    }

    const skipped: string[] = [];
    const foreignKeys: ForeignKeyInfo[] = [];
    for (const table of schema.tables.filter((t) => t.primaryKey.length > 0)) {
      await tryDdl(conn, `ALTER TABLE ${id(table.name)} ADD PRIMARY KEY (${table.primaryKey.map(id).join(', ')})`, `primary key of ${table.name}`, skipped);
    }
    await conn.query('SET SESSION foreign_key_checks = 0'); // Spider data breaks its own keys
    for (const fk of schema.tables.flatMap((t) => t.foreignKeys)) {
      const ddl =
        `ALTER TABLE ${id(fk.fromTable)} ADD FOREIGN KEY (${fk.fromColumns.map(id).join(', ')}) ` +
        `REFERENCES ${id(fk.toTable)} (${fk.toColumns.map(id).join(', ')})`;
      if (await tryDdl(conn, ddl, `foreign key ${fk.fromTable}(${fk.fromColumns}) -> ${fk.toTable}(${fk.toColumns})`, skipped)) foreignKeys.push(fk);
    }
    return { url: url.toString(), database, foreignKeys, skipped };
  } finally {
    sqlite.close();
    await conn.end();
  }
}

function id(name: string): string {
  return quoteIdentifier(name, 'mysql');
}

/** Columns that take part in a key need a bounded type (VARCHAR) to be indexed. */
function keyColumnsByTable(tables: TableInfo[]): Map<string, Set<string>> {
  const keys = new Map(tables.map((t) => [t.name, new Set(t.primaryKey)]));
  for (const fk of tables.flatMap((t) => t.foreignKeys)) {
    fk.fromColumns.forEach((c) => keys.get(fk.fromTable)!.add(c));
    fk.toColumns.forEach((c) => keys.get(fk.toTable)!.add(c));
  }
  return keys;
}

/** The MySQL type for what the column holds (sqliteColumnKind). */
function mysqlType(sqlite: Database.Database, table: string, column: string, declared: string, isKey: boolean): string {
  const { kind, maxBytes } = sqliteColumnKind(sqlite, table, column, declared);
  if (kind === 'integer') return 'BIGINT';
  if (kind === 'real') return 'DOUBLE';
  if (kind === 'blob') return isKey && maxBytes <= MAX_KEY_CHARS * 4 ? `VARBINARY(${maxBytes})` : 'LONGBLOB';
  return isKey && maxBytes <= MAX_KEY_CHARS ? `VARCHAR(${maxBytes})` : 'LONGTEXT';
}

async function copyRows(sqlite: Database.Database, conn: Connection, table: TableInfo): Promise<void> {
  const select = sqlite.prepare(`SELECT * FROM ${quoteIdentifier(table.name, 'sqlite')}`).raw(true);
  const insert = `INSERT INTO ${id(table.name)} (${table.columns.map((c) => id(c.name)).join(', ')}) VALUES ?`;
  let batch: unknown[][] = [];
  for (const row of select.iterate() as IterableIterator<unknown[]>) {
    batch.push(row);
    if (batch.length === BATCH_ROWS) {
      await conn.query(insert, [batch]);
      batch = [];
    }
  }
  if (batch.length > 0) await conn.query(insert, [batch]);
}
