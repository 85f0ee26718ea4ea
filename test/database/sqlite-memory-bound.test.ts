import { boundResult } from '../../activities/database/answer-result';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import { QueryOutOfMemory } from '../../activities/database/target-database';
import { sampleProcesses } from './process-sampler';
import { spiderDbPath } from './spider-files';

/** Per query process; what the statements below would use unbounded is several times this. */
const LIMIT_MB = 256;
/** Resident memory the bound allows: the data limit plus Node's code and shared libraries. */
const RSS_CEILING_MB = LIMIT_MB + 96;

const pool = new SqliteProcessPool({ size: 2, memoryLimitMb: LIMIT_MB });
afterAll(() => pool.close());
const db = new SqliteDatabase(spiderDbPath('car_1'), { pool });

async function bounded(sql: string, timeoutMs: number) {
  await db.execute('SELECT 1', { timeoutMs: 5000, maxRows: 1 }); // processes started before sampling
  const sampler = sampleProcesses(() => pool.processIds, pool.tempDir);
  const started = Date.now();
  const outcome = await db.execute(sql, { timeoutMs, maxRows: 1000 }).then(
    () => null,
    (err: Error) => err,
  );
  return { outcome, ms: Date.now() - started, peaks: sampler.stop() };
}

describe('a SQLite statement stays within its query process memory bound', () => {
  it('a 500-million-character printf fails with a clear out-of-memory error, the process stays bounded and serves on', async () => {
    const { outcome, peaks } = await bounded("SELECT length(printf('%.*c', 500000000, 'x'))", 30_000);
    expect(outcome).toBeInstanceOf(QueryOutOfMemory);
    expect(outcome!.message).toMatch(/out of memory.*256 MB/);
    expect(peaks.rssMb).toBeLessThan(RSS_CEILING_MB);
    expect((await db.execute('SELECT count(*) FROM car_makers', { timeoutMs: 5000, maxRows: 1 })).rows).toEqual([[22]]);
  }, 60_000);

  it('huge rows (200 x 16 MB) stop at the bound of a result instead of filling the process', async () => {
    const sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200) SELECT x, printf('%.*c', 16000000, 'y') FROM c";
    const { outcome, peaks } = await bounded(sql, 30_000);
    expect(outcome).toBeInstanceOf(QueryOutOfMemory);
    expect(outcome!.message).toMatch(/out of memory/);
    expect(peaks.rssMb).toBeLessThan(RSS_CEILING_MB);
  }, 60_000);

  it('large cells are cut to maxCellBytes as they are read: 200 rows of a 1 MB BLOB and a 1 MB text are answered, cut, not out of memory', async () => {
    // 400 MB whole, far past the 32 MB bound of a result in a 256 MB process.
    const sql =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200) SELECT x, randomblob(1000000), printf('%.*c', 1000000, 'é') FROM c";
    const limits = { maxCellBytes: 4096, maxResultBytes: 256 * 1024 };
    const sampler = sampleProcesses(() => pool.processIds, pool.tempDir);
    const result = await db.execute(sql, { timeoutMs: 30_000, maxRows: 1000, maxCellBytes: limits.maxCellBytes });
    const peaks = sampler.stop();
    expect(result.rows).toHaveLength(200);
    expect(peaks.rssMb).toBeLessThan(RSS_CEILING_MB);
    // What the answer holds: every kept cell cut to the limit, and counted as cut.
    const answer = boundResult(result, limits);
    const kept = answer.rows.length;
    expect(kept).toBeGreaterThan(0);
    expect(answer.byteLimit).toMatchObject({ cutCells: 2 * kept, droppedRows: 200 - kept });
    for (const [, blob, text] of answer.rows) {
      expect(Buffer.from((blob as { bytes: string }).bytes, 'base64').length).toBeLessThanOrEqual(limits.maxCellBytes);
      expect(Buffer.byteLength(text as string)).toBeLessThanOrEqual(limits.maxCellBytes);
      expect(text as string).toMatch(/^é+$/); // cut between characters
    }
  }, 60_000);

  it('an ORDER BY over a runaway CTE ends with out of memory long before its timeout, writing no temp file', async () => {
    const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c ORDER BY random()';
    const { outcome, ms, peaks } = await bounded(sql, 60_000);
    expect(outcome).toBeInstanceOf(QueryOutOfMemory);
    expect(ms).toBeLessThan(40_000);
    expect(peaks.tempBytes).toBe(0);
    expect(peaks.rssMb).toBeLessThan(RSS_CEILING_MB);
  }, 90_000);
});
