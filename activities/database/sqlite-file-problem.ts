import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { isServerUrl } from '../../core/database-reference';

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * What keeps `file` from being opened as a user's SQLite database, or null when nothing does:
 * the worker refuses such a file when it opens it, and the client and the CLI before a run starts
 * (so a typo is refused at once, not by a worker seconds later).
 */
export function sqliteFileProblem(file: string): string | null {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return `${file} is not a file`;
    size = stat.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return `no SQLite database at ${file} (and it is not a mysql://, mariadb://, postgres:// or postgresql:// URL)`;
    return `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  const header = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, header, 0, header.length, 0);
  } catch (err) {
    return `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // An empty file is a valid (empty) SQLite database, but never a user's data: refuse it too.
  if (size === 0 || header.toString('latin1') !== SQLITE_HEADER) return `${file} is not a SQLite database`;
  return null;
}

/** sqliteFileProblem of a database reference or resolved spec that names a SQLite file (an absolute path); null for a URL or a connection name. */
export function databaseFileProblem(spec: string): string | null {
  return isServerUrl(spec) || !path.isAbsolute(spec) ? null : sqliteFileProblem(spec);
}
