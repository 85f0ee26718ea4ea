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
});
