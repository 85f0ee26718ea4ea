import { firstUnaskedStop, WorkerStopped } from '../../workers/worker-stopped';

/** A promise settled from outside, standing for one worker's run(). */
function run() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** 'pending' if `p` has not settled after the microtasks and a timer tick. */
async function state(p: Promise<unknown>): Promise<string> {
  return Promise.race([
    p.then(
      () => 'resolved',
      (err: unknown) => `rejected: ${(err as Error).message}`,
    ),
    new Promise<string>((r) => setTimeout(() => r('pending'), 20)),
  ]);
}

describe('a worker that ends on its own is reported', () => {
  it('names the queue and the cause when a worker fails while nobody stopped it', async () => {
    const online = run();
    const llm = run();
    const stopped = firstUnaskedStop([online.promise, llm.promise], ['p.online', 'p.llm'], () => false);
    expect(await state(stopped)).toBe('pending');
    llm.reject(new Error('Namespace default is not found'));
    await expect(stopped).rejects.toBeInstanceOf(WorkerStopped);
    await expect(stopped).rejects.toThrow(/worker for task queue p\.llm stopped \(Namespace default is not found\)/);
  });

  it('also when a worker just ends', async () => {
    const online = run();
    const stopped = firstUnaskedStop([online.promise], ['p.online'], () => false);
    online.resolve();
    await expect(stopped).rejects.toThrow(/p\.online stopped \(it ended on its own\)/);
  });

  it('never settles for workers the process shut down itself', async () => {
    const online = run();
    const llm = run();
    let stopping = false;
    const stopped = firstUnaskedStop([online.promise, llm.promise], ['p.online', 'p.llm'], () => stopping);
    stopping = true;
    online.resolve();
    llm.reject(new Error('shut down while polling'));
    expect(await state(stopped)).toBe('pending');
  });
});
