import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * What is wrong with a database reference that names a SQLite file, as this process sees the
 * file system, or null when it is usable (or names no file: a MySQL URL, a connection name).
 * Checked before a run starts, so a typo is refused at once instead of by a worker seconds later.
 * A file of 0 bytes is an empty SQLite database, and passes.
 */
export function sqliteFileProblem(reference: string): string | null {
  if (!path.isAbsolute(reference)) return null; // normalised references: only SQLite paths are absolute
  let stat;
  try {
    stat = statSync(reference);
  } catch {
    return `no SQLite file at ${reference} (decodex opens an existing database and never creates one)`;
  }
  if (!stat.isFile()) return `${reference} is not a file (a SQLite database is one file)`;
  if (stat.size === 0) return null;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd;
  try {
    fd = openSync(reference, 'r');
    readSync(fd, head, 0, head.length, 0);
  } catch (err) {
    return `cannot read ${reference} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head.toString('latin1') === SQLITE_HEADER ? null : `${reference} is not a SQLite database (it does not start with "SQLite format 3")`;
}
