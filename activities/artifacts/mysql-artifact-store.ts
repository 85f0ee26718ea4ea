import { createHash } from 'node:crypto';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { redactDatabaseSpec } from '../../core/database-reference';
import { parseMysqlUrl, type MysqlConnectionSettings } from '../database/mysql-connection-url';
import { ArtifactLockTimeout, serializeArtifact, type ArtifactStore } from './artifact-store';

export interface MysqlArtifactStoreOptions {
  /** Used when the URL carries none (e.g. DECODEX_ARTIFACTS_PASSWORD from a secret). */
  password?: string;
  /** Connections of the store's pool. Default 8. */
  connectionLimit?: number;
}

/** Longest kind and key, in UTF-8 bytes: the primary key must fit InnoDB's 3072-byte index limit. */
export const MAX_KIND_BYTES = 191;
export const MAX_KEY_BYTES = 1024;
/** What a REPLACE statement carries besides the value: SQL text, key, kind, timestamp. */
const STATEMENT_OVERHEAD_BYTES = 4096;

const TABLE = 'decodex_artifacts';

/**
 * The shared artifact store for workers on several machines: one InnoDB table in a MySQL or
 * MariaDB database (`DECODEX_ARTIFACTS_URL=mysql://user:pass@host:port/db`), created on first
 * use. Kinds and keys are VARBINARY, so they compare and sort byte by byte as the SQLite store's
 * TEXT does (case-sensitive, code-point order); values are JSON in a LONGBLOB (up to 4 GB,
 * in practice bounded by the server's max_allowed_packet, checked before sending so an
 * oversized value fails with a message that says which setting to raise).
 *
 * Atomicity: each `put` is one REPLACE statement, so a reader sees the old row or the new one.
 * Values go through the binary protocol (prepared statements): the bytes travel once, not as
 * hex text of twice their size. `withLock` is GET_LOCK on a connection of its own, released
 * by the server if this process dies.
 */
export async function openMysqlArtifactStore(url: string, options: MysqlArtifactStoreOptions = {}): Promise<ArtifactStore> {
  const parsed = parseMysqlUrl(url);
  const settings: MysqlConnectionSettings = { ...parsed, password: parsed.password || options.password || '' };
  const where = redactDatabaseSpec(url);
  const pool = mysql.createPool({ ...settings, connectionLimit: options.connectionLimit ?? 8, charset: 'utf8mb4' });
  let maxPacket: number;
  try {
    await pool.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      kind VARBINARY(${MAX_KIND_BYTES}) NOT NULL,
      artifact_key VARBINARY(${MAX_KEY_BYTES}) NOT NULL,
      value LONGBLOB NOT NULL,
      updated_at DATETIME(3) NOT NULL,
      PRIMARY KEY (kind, artifact_key)
    ) ENGINE=InnoDB`);
    const [rows] = await pool.query<RowDataPacket[]>('SELECT @@max_allowed_packet AS packet');
    maxPacket = Number(rows[0].packet);
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(`cannot open the artifact store at ${where}: ${(err as Error).message}`);
  }

  const bytes = (text: string) => Buffer.from(text, 'utf8');
  const checkName = (kind: string, key: string) => {
    if (Buffer.byteLength(kind) > MAX_KIND_BYTES) throw new Error(`artifact kind "${kind.slice(0, 40)}..." is over ${MAX_KIND_BYTES} bytes`);
    if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new Error(`artifact ${kind}/${key.slice(0, 60)}...: key is over ${MAX_KEY_BYTES} bytes`);
  };

  return {
    async get<T>(kind: string, key: string): Promise<T | undefined> {
      const [rows] = await pool.execute<RowDataPacket[]>(`SELECT value FROM ${TABLE} WHERE kind = ? AND artifact_key = ?`, [bytes(kind), bytes(key)]);
      return rows.length ? (JSON.parse((rows[0].value as Buffer).toString('utf8')) as T) : undefined;
    },
    async put(kind, key, value) {
      checkName(kind, key);
      const json = bytes(serializeArtifact(kind, key, value));
      if (json.length + STATEMENT_OVERHEAD_BYTES > maxPacket) {
        throw new Error(
          `artifact ${kind}/${key} is ${mib(json.length)} MiB of JSON, over the MySQL server's max_allowed_packet (${mib(maxPacket)} MiB) at ${where}; ` +
            'raise max_allowed_packet on the server (e.g. --max-allowed-packet=256M)',
        );
      }
      await pool.execute(`REPLACE INTO ${TABLE} (kind, artifact_key, value, updated_at) VALUES (?, ?, ?, NOW(3))`, [bytes(kind), bytes(key), json]);
    },
    async has(kind, key) {
      const [rows] = await pool.execute<RowDataPacket[]>(`SELECT 1 FROM ${TABLE} WHERE kind = ? AND artifact_key = ?`, [bytes(kind), bytes(key)]);
      return rows.length > 0;
    },
    async delete(kind, key) {
      const [result] = await pool.execute<mysql.ResultSetHeader>(`DELETE FROM ${TABLE} WHERE kind = ? AND artifact_key = ?`, [bytes(kind), bytes(key)]);
      return result.affectedRows > 0;
    },
    async list(kind, prefix = '') {
      // A range on the primary key instead of LIKE (keys may contain % and _), bounded above so
      // only the matching keys are read: every key that starts with the prefix sorts below the
      // prefix followed by byte 0xFF, which UTF-8 never contains.
      const start = bytes(prefix);
      const end = Buffer.concat([start, Buffer.from([0xff])]);
      const [rows] = await pool.execute<RowDataPacket[]>(
        `SELECT artifact_key FROM ${TABLE} WHERE kind = ? AND artifact_key >= ? AND artifact_key < ? AND LEFT(artifact_key, ?) = ? ORDER BY artifact_key`,
        [bytes(kind), start, end, String(start.length), start],
      );
      return rows.map((r) => (r.artifact_key as Buffer).toString('utf8'));
    },
    async withLock(name, waitMs, work) {
      // Lock names are server-wide and at most 64 characters: hash the store's database with the name.
      const lock = `decodex-${createHash('sha1').update(`${settings.database}\0${name}`).digest('hex')}`;
      // A connection of its own: waiters must not hold the pool's connections the holder needs.
      const connection = await mysql.createConnection(settings);
      try {
        const [rows] = await connection.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS got', [lock, Math.max(0, waitMs) / 1000]);
        if (Number(rows[0].got) !== 1) throw new ArtifactLockTimeout(name, waitMs);
        try {
          return await work();
        } finally {
          await connection.query('SELECT RELEASE_LOCK(?)', [lock]);
        }
      } finally {
        await connection.end().catch(() => connection.destroy());
      }
    },
    async close() {
      await pool.end();
    },
  };
}

function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1);
}
