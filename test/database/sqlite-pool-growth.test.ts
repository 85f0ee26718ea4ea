import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { QueryTimeout } from '../../activities/database/target-database';
import { spiderDbPath } from './spider-files';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/**
 * A lazy pool (the shared one is lazy): short statements share one query process, each of
 * which costs 60-100 MB; a second starts only when work waits behind a slow statement.
 */
test('short statements share one process; a slow one gets a second process started for the work behind it', async () => {
  const pool = new SqliteProcessPool({ size: 2, spareAfterMs: 200 });
  try {
    const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });
    const counts = await Promise.all(Array.from({ length: 30 }, () => db.execute('SELECT count(*) FROM car_makers', { timeoutMs: 5000, maxRows: 1 })));
    expect(counts.every((r) => r.rows[0][0] === 22)).toBe(true);
    expect(pool.processIds).toHaveLength(1);

    const runaway = db.execute(RUNAWAY, { timeoutMs: 4000, maxRows: 1 }).catch((err: Error) => err);
    const started = Date.now();
    const behind = await db.execute('SELECT count(*) FROM car_makers', { timeoutMs: 5000, maxRows: 1 });
    expect(behind.rows).toEqual([[22]]);
    // Answered by a second process after about spareAfterMs, not after the runaway's 4 s.
    expect(Date.now() - started).toBeLessThan(2500);
    expect(pool.processIds).toHaveLength(2);
    expect(await runaway).toBeInstanceOf(QueryTimeout);
  } finally {
    await pool.close();
  }
});
