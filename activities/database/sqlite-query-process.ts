/**
 * Child-process entry point of SqliteProcessPool. better-sqlite3 blocks its thread inside
 * sqlite3_step and offers no interrupt, so a runaway query can only be stopped by killing the
 * process that runs it; this process exists to be killable. It keeps read-only connections
 * open by path so a query costs no start-up, and answers one request at a time.
 */
import type Database from 'better-sqlite3';
import type { ChildMessage, ParentMessage } from './sqlite-process-protocol';
import { startWatchdog } from './sqlite-process-watchdog';
import { openReadOnlySqlite, runReadOnlyStatement } from './sqlite-read-only';

const watchdog = startWatchdog();

/**
 * Connections kept open, the least recently used closed first. Each holds its own page cache and
 * parsed schema for as long as it stays open, so a process that served every database of a
 * benchmark kept all of them: 8 covers the databases a worker answers on at once, and reopening
 * one costs about a millisecond (the file is in the OS cache).
 */
const MAX_OPEN_CONNECTIONS = 8;
/**
 * Page cache of each connection, in KiB (`PRAGMA cache_size` negative = KiB). better-sqlite3
 * builds SQLite with 16 MB, which an open connection keeps once it has read that much; the
 * statements run here read a file once (profiling scans, one question's SQL), and the OS cache
 * already holds it, so SQLite's own default of 2 MB loses nothing and keeps the process small.
 */
const PAGE_CACHE_KIB = 2048;
const connections = new Map<string, Database.Database>();

function connectionFor(path: string): Database.Database {
  let db = connections.get(path);
  if (db) {
    connections.delete(path); // re-insert: Map order doubles as recency order
  } else {
    db = openReadOnlySqlite(path);
    // Sorts, DISTINCT and temp b-trees stay in memory, where this process's data limit bounds
    // them, instead of spilling to temp files that no limit covers (a runaway ORDER BY wrote
    // gigabytes of them).
    db.pragma('temp_store = MEMORY');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    if (connections.size >= MAX_OPEN_CONNECTIONS) forget(connections.keys().next().value as string);
  }
  connections.set(path, db);
  return db;
}

function forget(path: string): void {
  connections.get(path)?.close();
  connections.delete(path);
}

function send(message: ChildMessage): void {
  process.send!(message);
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'forget') return forget(message.path);
  watchdog.arm(message.timeoutMs);
  try {
    const db = connectionFor(message.path);
    send({
      type: 'result',
      id: message.id,
      result: runReadOnlyStatement(db, message.sql, message.params, message.maxRows, message.maxBytes, message.maxCellBytes),
    });
  } catch (err) {
    const e = err as Error & { code?: string };
    send({ type: 'error', id: message.id, error: { name: e.name, message: e.message, code: e.code } });
  } finally {
    watchdog.disarm();
  }
});

// The parent went away: nothing will ever read our answers.
process.on('disconnect', () => process.exit(0));

send({ type: 'ready' });
