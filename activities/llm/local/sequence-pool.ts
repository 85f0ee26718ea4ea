/**
 * A fixed set of resources lent out one task at a time, in arrival order, at most `maxLent` at
 * once: here, the context sequences of a loaded model. Each sequence keeps the prompt of its last
 * task evaluated, so there are more of them (the prompt cache) than generations may run at once.
 */
export interface Pool<T> {
  /**
   * Runs `task` with a free item. With `prefer`, the free item it scores highest is lent (a
   * sequence that already holds most of the prompt), among equals the one free the longest; a
   * task that had to wait takes the next freed.
   */
  use<R>(task: (item: T) => Promise<R>, prefer?: (item: T) => number): Promise<R>;
  /** Tasks waiting for an item (for tests and diagnostics). */
  readonly waiting: number;
}

export function createPool<T>(items: readonly T[], maxLent = items.length): Pool<T> {
  if (items.length === 0) throw new Error('a pool needs at least one item');
  if (!Number.isInteger(maxLent) || maxLent < 1 || maxLent > items.length)
    throw new Error(`a pool of ${items.length} lends 1 to ${items.length} at once, not ${maxLent}`);
  const free = [...items];
  let lent = 0;
  const waiters: Array<() => void> = [];

  // A released item goes to the back, so the front has been free the longest. Ties go to it:
  // items are lent least recently used first, and each keeps its last task's state (a sequence's
  // evaluated prompt) as long as possible. Lending the most recent one instead would overwrite
  // one sequence again and again and leave the others' prompts unused.
  const take = (prefer?: (item: T) => number): T => {
    let best = 0;
    if (prefer) {
      let bestScore = prefer(free[0]);
      for (let i = 1; i < free.length; i++) {
        const score = prefer(free[i]);
        if (score > bestScore) [best, bestScore] = [i, score];
      }
    }
    return free.splice(best, 1)[0];
  };
  const acquire = async (prefer?: (item: T) => number): Promise<T> => {
    if (lent < maxLent) lent++;
    // A released slot is handed to the first waiter as it is (`lent` unchanged), so no task that
    // arrives meanwhile can take it; the waiter then chooses among every free item.
    else await new Promise<void>((resolve) => waiters.push(resolve));
    return take(prefer);
  };
  const release = (item: T): void => {
    free.push(item);
    const next = waiters.shift();
    if (next) next();
    else lent--;
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
