/**
 * A fixed set of resources lent out one task at a time, in arrival order: here, the context
 * sequences of a loaded model, so no more generations run at once than it has sequences.
 */
export interface Pool<T> {
  /**
   * Runs `task` with a free item. With `prefer`, the free item it scores highest is lent (a
   * sequence that already holds most of the prompt); a task that had to wait takes the next freed.
   */
  use<R>(task: (item: T) => Promise<R>, prefer?: (item: T) => number): Promise<R>;
  /** Tasks waiting for an item (for tests and diagnostics). */
  readonly waiting: number;
}

export function createPool<T>(items: readonly T[]): Pool<T> {
  if (items.length === 0) throw new Error('a pool needs at least one item');
  const free = [...items];
  const waiters: Array<(item: T) => void> = [];

  const take = (prefer?: (item: T) => number): T | undefined => {
    if (free.length === 0) return undefined;
    let best = free.length - 1;
    if (prefer) for (let i = free.length - 2; i >= 0; i--) if (prefer(free[i]) > prefer(free[best])) best = i;
    return free.splice(best, 1)[0];
  };
  const acquire = (prefer?: (item: T) => number): Promise<T> => {
    const item = take(prefer);
    return item !== undefined ? Promise.resolve(item) : new Promise((resolve) => waiters.push(resolve));
  };
  const release = (item: T): void => {
    const next = waiters.shift();
    if (next) next(item);
    else free.push(item);
  };

  return {
    async use(task, prefer) {
      const item = await acquire(prefer);
      try {
        return await task(item);
      } finally {
        release(item);
      }
    },
    get waiting() {
      return waiters.length;
    },
  };
}
