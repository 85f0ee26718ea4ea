import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { QueryTimeout } from '../../activities/database/target-database';
import { spiderDbPath } from './spider-files';
import { isProcessAlive as isAlive } from '../../cli/temporal/process-alive';

const pool = new SqliteProcessPool({ size: 2 });
afterAll(() => pool.close());

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

test('a runaway query is stopped at its timeout while a concurrent query completes, and the pool recovers', async () => {
  const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });
  await db.execute('SELECT 1', { timeoutMs: 5000, maxRows: 1 }); // processes started: measure queries, not start-up
  const pidsBefore = pool.processIds;
  expect(pidsBefore).toHaveLength(2);

  const started = Date.now();
  const runaway = db.execute(RUNAWAY, { timeoutMs: 500, maxRows: 10 }).then(
    () => null,
    (err: Error) => ({ err, ms: Date.now() - started }),
  );
  // Meanwhile the event loop is free (timers fire) and the other process answers.
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 50);
  const concurrent = await db.execute('SELECT count(*) FROM cars_data a JOIN car_names b ON a.Id = b.MakeId', { timeoutMs: 5000, maxRows: 10 });
  expect(concurrent.rows).toEqual([[406]]);
  const stopped = await runaway;
  clearInterval(ticker);

  expect(stopped?.err).toBeInstanceOf(QueryTimeout);
  expect(stopped!.ms).toBeGreaterThanOrEqual(490);
  expect(stopped!.ms).toBeLessThan(500 + 1500);
  expect(ticks).toBeGreaterThanOrEqual(5);

  // The process that ran it is gone (not merely abandoned), and a fresh one took its place.
  const killed = pidsBefore.filter((pid) => !pool.processIds.includes(pid));
  expect(killed).toHaveLength(1);
  await waitUntil(() => !isAlive(killed[0]));
  expect(pool.processIds).toHaveLength(2);

  const after = await db.execute('SELECT count(*) FROM car_makers', { timeoutMs: 5000, maxRows: 10 });
  expect(after.rows).toEqual([[22]]);
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(condition()).toBe(true);
}

test('two runaways at once both time out, then both replacement processes answer', async () => {
  const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });
  const both = await Promise.allSettled([
    db.execute(`${RUNAWAY} -- a`, { timeoutMs: 300, maxRows: 1 }),
    db.execute(`${RUNAWAY} -- b`, { timeoutMs: 300, maxRows: 1 }),
  ]);
  expect(both.map((r) => r.status === 'rejected' && r.reason instanceof QueryTimeout)).toEqual([true, true]);
  const answers = await Promise.all([1, 2].map((n) => db.execute(`SELECT ${n}`, { timeoutMs: 5000, maxRows: 1 })));
  expect(answers.map((a) => a.rows)).toEqual([[[1]], [[2]]]);
});

test('row cap: at most maxRows rows, truncated only when more existed', async () => {
  const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });
  const capped = await db.execute('SELECT Id FROM cars_data ORDER BY Id', { timeoutMs: 5000, maxRows: 5 });
  expect(capped.rows).toEqual([[1], [2], [3], [4], [5]]);
  expect(capped.truncated).toBe(true);

  const exact = await db.execute('SELECT Id FROM cars_data ORDER BY Id LIMIT 5', { timeoutMs: 5000, maxRows: 5 });
  expect(exact.truncated).toBe(false);
  expect(exact.rows).toHaveLength(5);

  const none = await db.execute('SELECT Id FROM cars_data', { timeoutMs: 5000, maxRows: 0 });
  expect(none).toMatchObject({ columns: ['Id'], rows: [], truncated: true });

  // The cap stops the engine, not just the reader: an endless generator returns at once.
  const endless = await db.execute('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c', { timeoutMs: 2000, maxRows: 3 });
  expect(endless).toMatchObject({ rows: [[1], [2], [3]], truncated: true });
});

test('SQL errors come back as errors with the engine message, and do not break the process', async () => {
  const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });
  await expect(db.execute('SELECT nope FROM cars_data', { timeoutMs: 5000, maxRows: 1 })).rejects.toThrow(/no such column: nope/);
  expect((await db.execute('SELECT 7', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[7]]);
});
