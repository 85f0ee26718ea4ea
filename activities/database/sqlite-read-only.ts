import Database from 'better-sqlite3';
import { cutCellWhileReading } from '../../core/result-bytes';
import { encodeSqlValue, sqlValueBytes, type CellPosition, type SqlRow, type SqlValue } from '../../core/sql-value';
import { prepareWithLegacyStrings } from './sqlite-legacy-strings';
import { QueryOutOfMemory, ReadOnlyViolation, type StatementRows } from './target-database';

/**
 * Engine-level read-only protection for SQLite, below the statement guard: even SQL that got
 * past the guard cannot change the file, because
 * - the file is opened read-only (SQLITE_OPEN_READONLY) and must already exist;
 * - `PRAGMA query_only` makes the connection refuse any change, attached databases included;
 * - a statement the engine itself reports as writing (`sqlite3_stmt_readonly`) is not run, nor
 *   one that returns no rows (ATTACH, DETACH and setting PRAGMAs, which SQLite calls read-only).
 */
export function openReadOnlySqlite(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  // Integers beyond 2^53 must reach encodeSqlValue as bigint, not as a rounded double.
  db.defaultSafeIntegers(true);
  return db;
}

/**
 * Runs one statement, reading at most `maxRows + 1` rows so `truncated` is exact and cheap.
 * Rows past `maxBytes` in all stop it with QueryOutOfMemory: that is the process's memory bound,
 * not a presentation limit, so the statement fails rather than answering with part of its rows.
 * Cells are cut to about `maxCellBytes` (when given) before they count against that bound.
 */
export function runReadOnlyStatement(
  db: Database.Database,
  sql: string,
  params: SqlValue[],
  maxRows: number,
  maxBytes = Infinity,
  maxCellBytes?: number,
): StatementRows {
  const stmt = prepareWithLegacyStrings(db, sql);
  // Flag pragmas act while being prepared: `PRAGMA query_only=OFF` would disarm the connection
  // for every later statement. (The guard never lets a PRAGMA through; this is the layer below.)
  if (db.pragma('query_only', { simple: true }) !== 1n) {
    db.pragma('query_only = ON');
    throw new ReadOnlyViolation('rejected a statement that switched query_only off');
  }
  if (!stmt.readonly) throw new ReadOnlyViolation('rejected a statement that SQLite reports as writing');
  if (!stmt.reader) throw new ReadOnlyViolation('rejected a statement that returns no rows: it is not a query');
  stmt.raw(true);
  const columns = stmt.columns().map((c) => c.name);
  const rows: SqlRow[] = [];
  const integralReals: CellPosition[] = [];
  let truncated = false;
  let bytes = 0;
  for (const row of stmt.iterate(...params) as IterableIterator<unknown[]>) {
    if (rows.length === maxRows) {
      truncated = true;
      break; // leaving the loop resets the statement: SQLite computes no further rows
    }
    // Safe integers are on, so an INTEGER arrives as a bigint and a REAL as a number: a whole
    // number here is a REAL such as 1.0, which would be lost once encoded.
    row.forEach((v, c) => typeof v === 'number' && Number.isInteger(v) && integralReals.push([rows.length, c]));
    const encoded = row.map((v) => encodeSqlValue(maxCellBytes === undefined ? v : cutCellWhileReading(v, maxCellBytes)));
    bytes += encoded.reduce<number>((n, v) => n + sqlValueBytes(v), 0);
    if (bytes > maxBytes) {
      throw new QueryOutOfMemory(`out of memory: the statement's rows passed ${Math.round(maxBytes / 2 ** 20)} MB, the bound of a result in the query process`);
    }
    rows.push(encoded);
  }
  return { columns, rows, truncated, ...(integralReals.length > 0 ? { integralReals } : {}) };
}
