import { ReadOnlyViolation, type TargetDatabase } from '../../activities/database/target-database';

/** Each statement ends in ReadOnlyViolation (by the guard or by the engine's read-only transaction), none runs. */
export async function expectEachRefused(db: TargetDatabase, attempts: string[]): Promise<void> {
  for (const sql of attempts) {
    const outcome = await db.execute(sql, { timeoutMs: 5000, maxRows: 10 }).then(
      () => 'ran',
      (err: Error) => err,
    );
    expect([sql, outcome]).toEqual([sql, expect.any(ReadOnlyViolation)]);
  }
}
