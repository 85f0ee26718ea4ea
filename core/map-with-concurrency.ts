/**
 * Runs `task` over `items` with at most `limit` in flight, results in input order. Plain
 * promises and no timers, so workflow code may use it (it stays deterministic: tasks start in
 * input order as slots free up). A task returning `undefined` is fine; the first rejection
 * rejects the whole (tasks already started still finish, their results are dropped).
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
