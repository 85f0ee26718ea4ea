import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatServerUrl, parseServerUrl } from '../core/database-reference';
import { withPostgres } from '../devkit/postgres-state';
import { findPostgresBinaries, startPostgres } from '../devkit/postgres';
import { createPostgresReader } from '../devkit/postgres-reader';
import { loadSpiderIntoPostgres } from '../devkit/spider-to-postgres';

/** The role decodex reads with: SELECT on every table, nothing else, and the reader settings (README, "A read-only PostgreSQL account"). */
const READER = 'decodex_bench_reader';

export interface PostgresSpiderServer {
  /** One `postgres://decodex_bench_reader@.../<db_id>` per database, in the order given. */
  databases: string[];
  /** Time to copy the databases in (not part of any preparation). */
  loadSeconds: number;
  /** The postmaster's pid: every backend and helper of the server is below it. */
  pid: number;
  /** The server binary, to tell its processes from decodex's by command line. */
  binary: string;
  stop(): Promise<void>;
}

/**
 * A throw-away PostgreSQL server from Debian's packages, as the tests start one
 * (devkit/postgres.ts), holding a copy of each Spider database under its db_id
 * (devkit/spider-to-postgres.ts), read by a SELECT-only role.
 */
export async function startPostgresSpiderServer(files: { dbId: string; file: string }[]): Promise<PostgresSpiderServer> {
  const binaries = findPostgresBinaries();
  if ('missing' in binaries) throw new Error(binaries.missing);
  const server = await startPostgres(binaries);
  try {
    const started = performance.now();
    await withPostgres(server.url, (c) => createPostgresReader(c, READER));
    for (const { dbId, file } of files) await loadSpiderIntoPostgres(file, server.url, { database: dbId, reader: READER });
    const loadSeconds = (performance.now() - started) / 1000;
    const parts = parseServerUrl(server.url);
    return {
      databases: files.map(({ dbId }) => formatServerUrl({ ...parts, user: READER, database: dbId }, false)),
      loadSeconds,
      pid: Number(readFileSync(path.join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
      binary: binaries.postgres,
      stop: server.stop,
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
