import path from 'node:path';
import { PostgresDatabase } from '../../activities/database/postgres-database';
import { QueryOutOfMemory } from '../../activities/database/target-database';
import { runNodeScript } from '../../devkit/run-cli';
import { backendStillThere } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';

const BOUND_MB = 32;

interface Measured {
  sql: string;
  rows?: number;
  error?: string;
  message?: string;
  riseMb: number;
}

/**
 * A worker's memory while it reads PostgreSQL rows stays near its result bound, and the worker
 * lives (postgres-message-guard.ts). node-postgres buffers every message whole: before the guard
 * a 600 MB value ended the process (ERR_STRING_TOO_LONG thrown in the socket's data handler), a
 * 500 MB one raised its resident memory by 1.2 GB, 5 rows of 100 MB by 670 MB.
 */
describeWithPostgres('PostgreSQL rows and the worker memory', (server) => {
  test('values of 600 MB, 500 MB, rows of 100 MB and 30 MB stop at the bound; the worker holds tens of MB more, and answers the next statement', async () => {
    const statements = [
      "SELECT repeat('x', 600000000)",
      "SELECT repeat('x', 500000000)",
      "SELECT repeat('x', 100000000) FROM generate_series(1, 5)",
      "SELECT repeat('x', 30000000) FROM generate_series(1, 20)",
      "SELECT repeat('x', 1000000) FROM generate_series(1, 20)",
    ];
    const run = await runNodeScript(
      path.join(__dirname, 'fixtures/postgres-big-values.ts'),
      [server().url, String(BOUND_MB * 2 ** 20), ...statements],
      {},
      { nodeArgs: ['--expose-gc', '--require', 'tsx/cjs'], timeoutMs: 600_000 },
    );
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Measured & { alive?: unknown });
    const measured = lines.filter((l) => l.sql);
    for (const m of measured.slice(0, 4)) {
      expect([m.sql, m.error, m.message]).toEqual([m.sql, 'QueryOutOfMemory', expect.stringMatching(/out of memory: .*32 MB bound of a result/)]);
      // The bound, twice it on the wire for a FETCH in flight, node-postgres's buffer of one message: a few times the bound, not gigabytes.
      expect([m.sql, m.riseMb]).toEqual([m.sql, expect.any(Number)]);
      expect(m.riseMb).toBeLessThan(BOUND_MB * 4 + 32);
    }
    // A result under the bound is still answered whole.
    expect(measured[4]).toMatchObject({ rows: 20 });
    expect(lines.at(-1)).toEqual({ alive: [[1]] });
    process.stdout.write(`${measured.map((m) => `${m.sql}: +${Math.max(0, m.riseMb).toFixed(0)} MB`).join('\n')}\n`);
  }, 660_000);

  test('a connection dropped mid-result leaves no backend behind', async () => {
    const db = await PostgresDatabase.connect(server().url, { maxResultBytes: 2 ** 20, connectionLimit: 1, onAccountWarning: () => {} });
    try {
      const pid = await backendPid(db);
      // Rows under the bound each, past twice it together: the guard drops the connection while the backend still sends (a FETCH sends its batch once computed).
      const outcome = await db.execute("SELECT repeat('x', 600000) FROM generate_series(1, 100)", { timeoutMs: 60_000, maxRows: 1000 }).catch((e: Error) => e);
      expect(outcome).toBeInstanceOf(QueryOutOfMemory);
      expect(String(outcome)).toMatch(/rows passed 2 MB on the wire/);
      expect(await backendStillThere(server().url, pid, 3000)).toBe(false);
      expect((await db.execute('SELECT 1', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[1]]);
    } finally {
      await db.close();
    }
  }, 120_000);
});

/** The backend of the one pooled connection of `db` (pg_backend_pid is off the allowlist: asked past the checks). */
async function backendPid(db: PostgresDatabase): Promise<number> {
  const run = (db as unknown as { run(s: { sql: string; params: string[] }, o: { timeoutMs: number; maxRows: number }): Promise<{ rows: number[][] }> }).run;
  return (await run.call(db, { sql: 'SELECT pg_backend_pid()', params: [] }, { timeoutMs: 5000, maxRows: 1 })).rows[0][0];
}
