import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { canonicalJson } from './content-hash';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';
import type { SchemaInfo } from '../../core/database/schema-types';

/**
 * A content fingerprint of a target database: equal fingerprints mean the data is the same, so
 * re-preparing is a no-op; any change to schema or rows gives a new one, and new artifacts.
 *
 * - SQLite: SHA-256 of the file's bytes (and of its WAL file, which holds committed pages not
 *   yet copied back). Exact and cheap (~0.5 GB/s).
 * - MySQL/MariaDB: the server hides its files, so: schema + per table an exact row count and
 *   the sum of CRC32 of every row (order-independent; duplicates count). One scan per table,
 *   each within `queryTimeoutMs`.
 * - PostgreSQL: the same, with the first 32 bits of the MD5 of each row's text (`t::text`).
 */
export async function databaseFingerprint(db: TargetDatabase, schema: SchemaInfo, queryTimeoutMs: number): Promise<string> {
  // The file the database opened, not the reference (which may be a connection name).
  if (db.path) return sqliteFileFingerprint(db.path);
  const hash = createHash('sha256').update(canonicalJson(schema));
  for (const table of schema.tables) {
    const { rows } = await db.execute(rowHashSumSql(table, db.dialect), { timeoutMs: queryTimeoutMs, maxRows: 1 });
    hash.update(canonicalJson([table.name, rows[0]]));
  }
  return `${db.dialect}:` + hash.digest('hex').slice(0, 32);
}

/** A table's row count and the sum of a 32-bit hash of every row, in the server's dialect. */
function rowHashSumSql(table: SchemaInfo['tables'][number], dialect: 'mysql' | 'postgres' | 'sqlite'): string {
  if (dialect === 'postgres') {
    return `SELECT COUNT(*), SUM(('x' || left(md5(t::text), 8))::bit(32)::bigint) FROM ${quoteIdentifier(table.name, 'postgres')} AS t`;
  }
  const cells = table.columns.map((c) => `IFNULL(${quoteIdentifier(c.name, 'mysql')}, X'00')`).join(', ');
  return `SELECT COUNT(*), SUM(CRC32(CONCAT_WS(X'1f', ${cells}))) FROM ${quoteIdentifier(table.name, 'mysql')}`;
}

async function sqliteFileFingerprint(file: string): Promise<string> {
  const hash = createHash('sha256');
  for (const part of [file, `${file}-wal`]) {
    if (part !== file && !existsSync(part)) continue;
    for await (const chunk of createReadStream(part)) hash.update(chunk as Buffer);
  }
  return 'sqlite:' + hash.digest('hex').slice(0, 32);
}
