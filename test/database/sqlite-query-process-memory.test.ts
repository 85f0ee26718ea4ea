import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { SPIDER_DIR, spiderDbPath } from './spider-files';

/**
 * What keeps each SQLite query process small when one worker prepares or answers on many
 * databases (bench:prepare runs every Spider database through one pool): a bounded page cache
 * per connection, a bounded number of open connections, and a small V8 young generation.
 */
const pool = new SqliteProcessPool({ size: 1 });
afterAll(() => pool.close());

const run = (file: string, sql: string) => pool.run({ path: file, sql, maxRows: 10, timeoutMs: 10_000 });

/** The SQLite files the query process holds open (from its file descriptors). */
function openSqliteFiles(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`)
    .map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.endsWith('.sqlite'));
}

/** Command lines of a process's children. */
function childCommands(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
    .map((child) => {
      try {
        return readFileSync(`/proc/${child}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    });
}

describe('SQLite query process memory', () => {
  it('gives each connection a 2 MB page cache, not the 16 MB better-sqlite3 builds in', async () => {
    const { rows } = await run(spiderDbPath('car_1'), 'SELECT cache_size FROM pragma_cache_size');
    expect(rows).toEqual([[-2048]]);
  });

  it('keeps at most 8 databases open, closing the least recently used', async () => {
    const databases = readdirSync(path.join(SPIDER_DIR, 'database')).sort().slice(0, 12);
    for (const db of databases) await run(spiderDbPath(db), 'SELECT count(*) FROM sqlite_master');
    const [pid] = pool.processIds;
    const open = openSqliteFiles(pid);
    expect(open).toHaveLength(8);
    // The last 8 used are the ones kept; the first 4 were closed.
    expect(open.map((f) => path.basename(f, '.sqlite')).sort()).toEqual(databases.slice(4));
    // A closed one opens again on its next statement.
    expect((await run(spiderDbPath(databases[0]), 'SELECT 1')).rows).toEqual([[1]]);
  });

  it('starts Node with a 1 MB young generation and a 30% old-generation growth', async () => {
    await run(spiderDbPath('car_1'), 'SELECT 1');
    const [pid] = pool.processIds;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--max-semi-space-size=1');
    expect(argv).toContain('--heap-growing-percent=30');
  });

  it('runs its code bundled into JavaScript, without a TypeScript loader, and removes the bundle when the pool closes', async () => {
    const own = new SqliteProcessPool({ size: 1 });
    try {
      expect((await own.run({ path: spiderDbPath('car_1'), sql: 'SELECT 1', maxRows: 1, timeoutMs: 10_000 })).rows).toEqual([[1]]);
      const [pid] = own.processIds;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(argv.some((a) => a.includes('tsx'))).toBe(false);
      const entry = argv.find((a) => a.endsWith('sqlite-query-process.js'))!;
      expect(existsSync(entry)).toBe(true);
      // Bundling left no esbuild service running beside this process.
      await new Promise((r) => setTimeout(r, 100));
      expect(childCommands(process.pid).filter((c) => c.includes('esbuild'))).toEqual([]);
      await own.close();
      expect(existsSync(entry)).toBe(false);
    } finally {
      await own.close();
    }
  });
});
