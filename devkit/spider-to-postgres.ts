import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { quoteIdentifier } from '../activities/database/sql-identifiers';
import { applyPostgresReaderSettings } from './postgres-reader';
import type { ForeignKeyInfo, TableInfo } from '../core/database/schema-types';
import { readSqliteFileSchema, sqliteColumnKind, tryDdl } from './spider-copy';

export interface LoadedPostgresDatabase {
  /** `postgres://.../<database>`: the server URL with the new database as its path. */
  url: string;
  database: string;
  /** Foreign keys the server accepted, names lower-cased as loaded. */
  foreignKeys: ForeignKeyInfo[];
  /** Constraints that could not be created, with the server's reason. */
  skipped: string[];
}

/** PostgreSQL binds at most 65535 parameters per statement. */
const MAX_PARAMS = 60_000;
const TYPES = { integer: 'bigint', real: 'double precision', text: 'text', blob: 'bytea' } as const;

/**
 * Copies a Spider SQLite database (schema and every row) into a new PostgreSQL database (named
 * `options.database` exactly as given, or as the file), replacing one left by an earlier run. Table and column
 * names are lower-cased: PostgreSQL folds unquoted names to lower case, so Spider's SQL
 * (`SELECT Name FROM Singer`) finds them, as it does on SQLite and MariaDB, which ignore case.
 * Column types follow what the values are (sqliteColumnKind). Keys are added after the rows;
 * foreign keys NOT VALID (Spider data breaks its own keys); a constraint the server refuses is
 * reported, not fatal. `options.reader`, an existing role, is granted SELECT on every table and
 * gets the reader settings (postgres-reader.ts; `serverUrl` must be a superuser's). The server's default collation (the test server's C.UTF-8) compares text
 * byte for byte, as SQLite does.
 */
export async function loadSpiderIntoPostgres(
  sqlitePath: string,
  serverUrl: string,
  options: { database?: string; reader?: string } = {},
): Promise<LoadedPostgresDatabase> {
  const database = options.database ?? path.basename(sqlitePath).replace(/\.sqlite$/, '');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Quoted as given, not folded like the tables' names: a URL names its database exactly
    // (a benchmark's `postgres://.../{db_id}` finds Spider's cre_Doc_Template_Mgt).
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database, 'postgres')} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quoteIdentifier(database, 'postgres')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const sqlite = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  sqlite.defaultSafeIntegers(true);
  const conn = new Client({ connectionString: url.toString() });
  await conn.connect();
  try {
    const schema = await readSqliteFileSchema(sqlite);
    for (const table of schema.tables) {
      const columns = table.columns.map((c) => `${id(c.name)} ${TYPES[sqliteColumnKind(sqlite, table.name, c.name, c.type).kind]}`);
      await conn.query(`CREATE TABLE ${id(table.name)} (${columns.join(', ')})`);
      await copyRows(sqlite, conn, table);
    }
    const skipped: string[] = [];
    const foreignKeys: ForeignKeyInfo[] = [];
    for (const table of schema.tables.filter((t) => t.primaryKey.length > 0)) {
      await tryDdl(conn, `ALTER TABLE ${id(table.name)} ADD PRIMARY KEY (${table.primaryKey.map(id).join(', ')})`, `primary key of ${table.name}`, skipped);
    }
    for (const fk of schema.tables.flatMap((t) => t.foreignKeys)) {
      const ddl =
        `ALTER TABLE ${id(fk.fromTable)} ADD FOREIGN KEY (${fk.fromColumns.map(id).join(', ')}) ` +
        `REFERENCES ${id(fk.toTable)} (${fk.toColumns.map(id).join(', ')}) NOT VALID`;
      if (await tryDdl(conn, ddl, `foreign key ${fk.fromTable}(${fk.fromColumns}) -> ${fk.toTable}(${fk.toColumns})`, skipped)) {
        foreignKeys.push({
          fromTable: lower(fk.fromTable),
          fromColumns: fk.fromColumns.map(lower),
          toTable: lower(fk.toTable),
          toColumns: fk.toColumns.map(lower),
        });
      }
    }
    // CONNECT and USAGE on public are PUBLIC's by default; SELECT is all a reader gets (README, "A read-only PostgreSQL account").
    if (options.reader) {
      await conn.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${quoteIdentifier(options.reader, 'postgres')}`);
      await applyPostgresReaderSettings(conn, options.reader);
    }
    return { url: url.toString(), database, foreignKeys, skipped };
  } finally {
    sqlite.close();
    await conn.end();
  }
}

const lower = (name: string) => name.toLowerCase();

function id(name: string): string {
  return quoteIdentifier(lower(name), 'postgres');
}

async function copyRows(sqlite: Database.Database, conn: Client, table: TableInfo): Promise<void> {
  const select = sqlite.prepare(`SELECT * FROM ${quoteIdentifier(table.name, 'sqlite')}`).raw(true);
  const width = table.columns.length;
  const batchRows = Math.max(1, Math.min(500, Math.floor(MAX_PARAMS / width)));
  const head = `INSERT INTO ${id(table.name)} (${table.columns.map((c) => id(c.name)).join(', ')}) VALUES `;
  let batch: unknown[][] = [];
  const flush = async () => {
    const tuples = batch.map((_, r) => `(${table.columns.map((__, c) => `$${r * width + c + 1}`).join(', ')})`);
    await conn.query(head + tuples.join(', '), batch.flat().map(param));
    batch = [];
  };
  for (const row of select.iterate() as IterableIterator<unknown[]>) {
    batch.push(row);
    if (batch.length === batchRows) await flush();
  }
  if (batch.length > 0) await flush();
}

/** Integers travel as text (every digit kept); PostgreSQL casts each to its column's type. */
function param(value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
