/**
 * A fixed set of resources lent out one task at a time, in arrival order: here, the context
 * sequences of a loaded model, so no more generations run at once than it has sequences.
 */
export interface Pool<T> {
  use<R>(task: (item: T) => Promise<R>): Promise<R>;
  /** Tasks waiting for an item (for tests and diagnostics). */
  readonly waiting: number;
}

export function createPool<T>(items: readonly T[]): Pool<T> {
  if (items.length === 0) throw new Error('a pool needs at least one item');
  const free = [...items];
  const waiters: Array<(item: T) => void> = [];

  const acquire = (): Promise<T> => {
    const item = free.pop();
    return item !== undefined ? Promise.resolve(item) : new Promise((resolve) => waiters.push(resolve));
  };
  const release = (item: T): void => {
    const next = waiters.shift();
    if (next) next(item);
    else free.push(item);
  };

  return {
    async use(task) {
      const item = await acquire();
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
