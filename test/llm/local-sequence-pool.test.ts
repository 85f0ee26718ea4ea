import { createPool } from '../../activities/llm/local/sequence-pool';

describe('createPool', () => {
  it('never lends more items than it has, and serves waiting tasks in arrival order', async () => {
    const pool = createPool(['a', 'b']);
    let running = 0;
    let maxRunning = 0;
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const task = (name: string) =>
      pool.use(async (item) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        order.push(`${name}:${item}`);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return name;
      });

    const results = Promise.all(['t1', 't2', 't3', 't4'].map(task));
    await new Promise((r) => setImmediate(r));
    expect(order).toHaveLength(2);
    expect(pool.waiting).toBe(2);
    while (releases.length > 0 || pool.waiting > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(await results).toEqual(['t1', 't2', 't3', 't4']);
    expect(maxRunning).toBe(2);
    expect(order.slice(2).map((o) => o.split(':')[0])).toEqual(['t3', 't4']);
  });

  it('gives the item back when a task fails', async () => {
    const pool = createPool([1]);
    await expect(pool.use(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(pool.use(async (item) => item + 1)).resolves.toBe(2);
  });

  it('lends the item scored highest, and among equals the one free the longest', async () => {
    const pool = createPool(['a', 'b', 'c']);
    const lent: string[] = [];
    const one = (score: (item: string) => number) => pool.use(async (item) => void lent.push(item), score);
    // Nothing to prefer: one after another, the items take turns (each keeps its state longest).
    for (let i = 0; i < 4; i++) await one(() => 0);
    expect(lent).toEqual(['a', 'b', 'c', 'a']);
    // A higher score wins whatever its recency; ties after it go back to the longest free.
    await one((item) => (item === 'a' ? 5 : 0));
    await one(() => 0);
    expect(lent.slice(4)).toEqual(['a', 'b']);
  });

  it('lends at most maxLent items at once, and a waiting task still chooses among every free item', async () => {
    const pool = createPool(['a', 'b', 'c', 'd'], 2);
    const releases = new Map<string, () => void>();
    const lent: string[] = [];
    const hold = (name: string, score: (item: string) => number) =>
      pool.use(async (item) => {
        lent.push(`${name}:${item}`);
        await new Promise<void>((resolve) => releases.set(name, resolve));
      }, score);
    const done = [hold('t1', () => 0), hold('t2', () => 0), hold('t3', (item) => (item === 'd' ? 9 : 0))];
    await new Promise((r) => setImmediate(r));
    expect(lent).toEqual(['t1:a', 't2:b']); // two of four, though two more are free
    expect(pool.waiting).toBe(1);
    releases.get('t1')!();
    await new Promise((r) => setImmediate(r));
    expect(lent[2]).toBe('t3:d'); // not the item t1 gave back: the one t3 prefers
    releases.get('t2')!();
    releases.get('t3')!();
    await Promise.all(done);
    expect(() => createPool(['a'], 2)).toThrow('a pool of 1 lends 1 to 1 at once, not 2');
  });
});
