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

/** Enough for a worker that serves many databases; the least recently used is closed first. */
const MAX_OPEN_CONNECTIONS = 32;
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
    send({ type: 'result', id: message.id, result: runReadOnlyStatement(db, message.sql, message.params, message.maxRows, message.maxBytes) });
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
