import { Worker } from 'node:worker_threads';

/** How long past a statement's own timeout the watchdog waits for the parent to act first. */
const GRACE_MS = 2000;
const CHECK_EVERY_MS = 200;

/**
 * Plain JavaScript, so the thread starts without a TypeScript loader. It shares one number with
 * the main thread, the running statement's deadline (0 when idle), and kills the whole process
 * when the deadline passes or when the parent is gone (the process was re-parented).
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const deadline = new BigInt64Array(workerData.deadline);
setInterval(() => {
  const d = Atomics.load(deadline, 0);
  if (process.ppid !== workerData.parentPid || (d > 0n && BigInt(Date.now()) > d)) process.kill(process.pid, 'SIGKILL');
}, ${CHECK_EVERY_MS});
`;

export interface Watchdog {
  /** A statement with this timeout starts now. */
  arm(timeoutMs: number): void;
  /** The statement ended. */
  disarm(): void;
}

/**
 * The parent normally kills a query process at the timeout. But a statement blocks this
 * process's main thread inside SQLite, where it cannot notice anything, so if the parent dies
 * (a crashed worker) a runaway query would run on forever. A thread of its own, which runs while
 * the main thread is blocked, ends the process then, or if the parent missed the deadline.
 */
export function startWatchdog(): Watchdog {
  const deadline = new BigInt64Array(new SharedArrayBuffer(8));
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { deadline: deadline.buffer, parentPid: process.ppid } });
  worker.unref(); // it guards the process; it is no reason to keep it alive
  return {
    arm: (timeoutMs) => Atomics.store(deadline, 0, BigInt(Date.now() + timeoutMs + GRACE_MS)),
    disarm: () => Atomics.store(deadline, 0, 0n),
  };
}
