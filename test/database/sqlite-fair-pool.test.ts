import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { sharedSqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { QueryTimeout } from '../../activities/database/target-database';
import { spiderDbPath } from './spider-files';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const RUNAWAY_TIMEOUT_MS = 8_000;

afterAll(() => sharedSqliteProcessPool().close());

/**
 * The pool every database of a worker shares: runaway statements on one database (three of
 * them, one more than it may run at once) must not stall a question on another database.
 */
test('runaway queries on one database leave a query process to the others', async () => {
  const pool = sharedSqliteProcessPool();
  const runawayDb = new SqliteDatabase(spiderDbPath('car_1'));
  const otherDb = new SqliteDatabase(spiderDbPath('concert_singer'));
  await runawayDb.execute('SELECT 1', { timeoutMs: 5000, maxRows: 1 });

  const runaways = Array.from({ length: 3 }, () => runawayDb.execute(RUNAWAY, { timeoutMs: RUNAWAY_TIMEOUT_MS, maxRows: 1 }).catch((err: Error) => err));
  await new Promise((r) => setTimeout(r, 300)); // the runaways hold their processes
  const started = Date.now();
  const answer = await otherDb.execute('SELECT count(*) FROM singer', { timeoutMs: 5000, maxRows: 1 });
  const waitedMs = Date.now() - started;

  expect(answer.rows).toEqual([[6]]);
  // A process of its own within seconds, not after the runaways' 8 s timeout.
  expect(waitedMs).toBeLessThan(4_000);
  expect(pool.processIds.length).toBeLessThanOrEqual(pool.size);
  for (const outcome of await Promise.all(runaways)) expect(outcome).toBeInstanceOf(QueryTimeout);
}, 60_000);
