import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqlValue } from '../../core/sql-value';
import { boundedNodeLaunch, checkMemoryLimitMb, DEFAULT_SQLITE_MEMORY_LIMIT_MB, resultByteBound } from './sqlite-process-memory';
import type { ChildMessage, ParentMessage } from './sqlite-process-protocol';
import { queryProcessEntry, type QueryProcessEntry } from './sqlite-query-process-entry';
import { QueryOutOfMemory, QueryTimeout, ReadOnlyViolation, type StatementRows } from './target-database';

export interface SqliteProcessPoolOptions {
  /** Child processes, i.e. SQLite statements that can run at once. Default 2. */
  size?: number;
  /**
   * When set, only one process starts on first use, and another (up to `size`) only when work
   * is waiting while every process has been running one statement for at least this long. Short
   * statements then share one process (each costs 60-100 MB), and a slow one still does not
   * hold up the rest for longer than this. Unset: all `size` processes start on first use.
   */
  spareAfterMs?: number;
  /**
   * Processes one database may occupy at once; its further statements wait while other
   * databases' statements run on the remaining processes, so runaway queries on one database
   * cannot stall questions on the others. Default: `size` (no cap; the shared pool sets one).
   */
  perDatabase?: number;
  /**
   * Memory bound of each query process in MB (its data segment: SQLite's heap, sorts and temp
   * tables, which stay in memory, and the rows of a result). A statement that needs more fails
   * with QueryOutOfMemory. Default 512; the whole pool stays under `size` times this.
   */
  memoryLimitMb?: number;
}

export interface SqliteRunRequest {
  path: string;
  sql: string;
  params?: SqlValue[];
  maxRows: number;
  /** Cells are cut to about this as they are read (ExecuteOptions.maxCellBytes). */
  maxCellBytes?: number;
  /** Counted from when a process starts the statement (queueing for a free process is not counted). */
  timeoutMs: number;
}

interface Job {
  request: SqliteRunRequest;
  resolve(rows: StatementRows): void;
  reject(err: Error): void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job: Job | null;
  jobId: number;
  timer: NodeJS.Timeout | null;
  /** When the current job was sent (performance.now()). */
  jobStartedAt: number;
  exited: Promise<void>;
}

/**
 * Runs SQLite statements in a few long-lived child processes (see sqlite-query-process.ts).
 * A statement that outlives its timeout is stopped for real: its process is SIGKILLed and a
 * fresh one takes its place, while statements on the other processes and this process's event
 * loop carry on. Processes are started on first use and kept, so start-up is paid once.
 * Idle processes do not keep Node alive; `close()` ends them.
 */
export class SqliteProcessPool {
  readonly size: number;
  readonly perDatabase: number;
  readonly memoryLimitMb: number;
  /**
   * SQLITE_TMPDIR of the query processes. temp_store=MEMORY keeps SQLite's temp data in memory,
   * so this stays empty; a folder of the pool's own makes that checkable and cleans up after it.
   */
  readonly tempDir: string;
  private readonly spareAfterMs: number | undefined;
  private growthTimer: NodeJS.Timeout | null = null;
  private slots: Slot[] = [];
  private entry: QueryProcessEntry | undefined;
  private queue: Job[] = [];
  private nextJobId = 1;
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  /** Ids of the live child processes (for diagnostics and tests). */
  get processIds(): number[] {
    return this.slots.map((s) => s.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  constructor(options: SqliteProcessPoolOptions = {}) {
    this.size = options.size ?? 2;
    this.spareAfterMs = options.spareAfterMs;
    if (!Number.isInteger(this.size) || this.size < 1) throw new Error(`SQLite process pool size must be a positive integer, got ${this.size}`);
    this.perDatabase = options.perDatabase ?? this.size;
    if (!Number.isInteger(this.perDatabase) || this.perDatabase < 1 || this.perDatabase > this.size) {
      throw new Error(`SQLite processes per database must be an integer from 1 to the pool size ${this.size}, got ${this.perDatabase}`);
    }
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_SQLITE_MEMORY_LIMIT_MB;
    checkMemoryLimitMb(this.memoryLimitMb);
    this.tempDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-sqlite-tmp-'));
  }

  run(request: SqliteRunRequest): Promise<StatementRows> {
    if (this.closed) return Promise.reject(new Error('the SQLite process pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      const wanted = this.spareAfterMs === undefined ? this.size : 1;
      while (this.slots.length < wanted) this.startProcess();
      this.dispatch();
    });
  }

  /** Lets every process close its connection to `path`. */
  forget(path: string): void {
    for (const slot of this.slots) if (slot.ready) this.send(slot, { type: 'forget', path });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.growthTimer) clearTimeout(this.growthTimer);
    for (const job of this.queue.splice(0)) job.reject(new Error('the SQLite process pool was closed'));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      this.finish(slot, (job) => job.reject(new Error('the SQLite process pool was closed')));
      slot.child.kill('SIGKILL');
    }
    await Promise.all(slots.map((s) => s.exited));
    rmSync(this.tempDir, { recursive: true, force: true });
    if (this.entry?.ownDir) rmSync(this.entry.ownDir, { recursive: true, force: true });
  }

  private startProcess(): void {
    // Bundled on the first start, kept for replacements.
    this.entry ??= queryProcessEntry();
    const launch = boundedNodeLaunch(this.entry.entry, this.entry.execArgv, this.memoryLimitMb);
    const child = spawn(launch.command, launch.args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
      env: { ...process.env, ...this.entry.env, SQLITE_TMPDIR: this.tempDir },
    });
    const slot: Slot = { child, ready: false, job: null, jobId: 0, timer: null, jobStartedAt: 0, exited: new Promise((r) => child.once('exit', () => r())) };
    this.slots.push(slot);
    child.on('message', (message: ChildMessage) => this.onMessage(slot, message));
    child.once('exit', (code, signal) => this.onExit(slot, code, signal));
    child.on('error', () => {}); // a failed send or spawn also ends in 'exit', handled there
    this.updateRefs();
  }

  private onMessage(slot: Slot, message: ChildMessage): void {
    if (message.type === 'ready') {
      slot.ready = true;
    } else if (message.id === slot.jobId) {
      if (message.type === 'result') this.finish(slot, (job) => job.resolve(message.result));
      else this.finish(slot, (job) => job.reject(rebuildError(message.error, this.memoryLimitMb)));
    }
    this.dispatch();
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (!this.slots.includes(slot)) return; // closed, or killed for a timeout: already settled
    const wasReady = slot.ready;
    this.slots = this.slots.filter((s) => s !== slot);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    // Past its data limit Node itself cannot allocate and aborts: the likeliest cause by far.
    const died = `the SQLite query process died (${how}) while running the statement, most likely out of memory: it may use at most ${this.memoryLimitMb} MB`;
    this.finish(slot, (job) => job.reject(signal ? new QueryOutOfMemory(died) : new Error(died)));
    if (!wasReady) {
      // Start-up itself fails (its stderr says why): fail waiting work instead of respawning forever.
      const err = new Error(`the SQLite query process exited (${how}) before it was ready`);
      for (const job of this.queue.splice(0)) job.reject(err);
    } else if (this.slots.length < this.size && this.replacementNeeded()) {
      this.startProcess();
    }
    this.updateRefs();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const next = this.nextFairJob();
      if (next < 0) break;
      const [job] = this.queue.splice(next, 1);
      const { path, sql, params = [], maxRows, maxCellBytes, timeoutMs } = job.request;
      slot.job = job;
      slot.jobId = this.nextJobId++;
      slot.timer = setTimeout(() => this.killForTimeout(slot), timeoutMs);
      slot.jobStartedAt = performance.now();
      this.send(slot, { type: 'run', id: slot.jobId, path, sql, params, maxRows, maxBytes: resultByteBound(this.memoryLimitMb), maxCellBytes, timeoutMs });
    }
    this.growIfHeldUp();
    this.updateRefs();
  }

  /** The oldest waiting statement whose database has fewer than `perDatabase` running; -1 if none. */
  private nextFairJob(): number {
    const running = new Map<string, number>();
    for (const { job } of this.slots) if (job) running.set(job.request.path, (running.get(job.request.path) ?? 0) + 1);
    return this.queue.findIndex((job) => (running.get(job.request.path) ?? 0) < this.perDatabase);
  }

  /** A process died or was killed: an eager pool replaces it; a lazy one only when work needs it. */
  private replacementNeeded(): boolean {
    return this.spareAfterMs === undefined || this.slots.length === 0 || this.queue.length > 0;
  }

  /**
   * Lazy pools: work is waiting and every process has run its statement for `spareAfterMs`:
   * start one more. Otherwise check again when the youngest statement reaches that age.
   */
  private growIfHeldUp(): void {
    if (this.spareAfterMs === undefined || this.closed || this.growthTimer) return;
    if (this.queue.length === 0 || this.slots.length >= this.size) return;
    if (this.slots.some((s) => !s.ready)) return; // one is starting: it will take the work
    if (this.nextFairJob() < 0) return; // what waits, waits for its database's cap: a process more would not run it
    const youngest = Math.max(...this.slots.map((s) => s.jobStartedAt));
    const wait = youngest + this.spareAfterMs - performance.now();
    if (wait <= 0) {
      this.startProcess();
      return;
    }
    this.growthTimer = setTimeout(() => {
      this.growthTimer = null;
      this.dispatch();
    }, wait);
    this.growthTimer.unref();
  }

  private killForTimeout(slot: Slot): void {
    const timeoutMs = slot.job?.request.timeoutMs ?? 0;
    this.slots = this.slots.filter((s) => s !== slot);
    slot.child.kill('SIGKILL');
    this.finish(slot, (job) => job.reject(new QueryTimeout(timeoutMs)));
    if (!this.closed && this.replacementNeeded()) this.startProcess();
    this.dispatch();
  }

  private finish(slot: Slot, settle: (job: Job) => void): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const job = slot.job;
    slot.job = null;
    if (job) settle(job);
  }

  private send(slot: Slot, message: ParentMessage): void {
    try {
      slot.child.send(message);
    } catch {
      // The channel closed under us: the 'exit' handler settles the job.
    }
  }

  /** Children keep Node alive only while there is work, so a forgotten pool does not hang exit. */
  private updateRefs(): void {
    const busy = this.queue.length > 0 || this.slots.some((s) => s.job);
    for (const { child } of this.slots) {
      if (busy) {
        child.ref();
        child.channel?.ref();
      } else {
        child.unref();
        child.channel?.unref();
      }
    }
  }
}

function rebuildError(error: { name: string; message: string; code?: string }, memoryLimitMb: number): Error {
  if (error.name === 'ReadOnlyViolation') return new ReadOnlyViolation(error.message);
  if (error.name === 'QueryOutOfMemory') return new QueryOutOfMemory(error.message);
  if (error.code === 'SQLITE_NOMEM') {
    return new QueryOutOfMemory(`out of memory: the statement needed more than the ${memoryLimitMb} MB a SQLite query process may use`);
  }
  const err = new Error(error.message) as Error & { code?: string };
  err.name = error.name;
  if (error.code) err.code = error.code;
  return err;
}

let shared: SqliteProcessPool | null = null;

/** Query processes of a worker's pool when DECODEX_SQL_POOL_SIZE does not say. */
export const DEFAULT_SQLITE_POOL_SIZE = 3;

/**
 * The process-wide pool that SQLite databases use unless given one: a worker that serves many
 * databases then runs at most `size` child processes in all (DECODEX_SQL_POOL_SIZE, default
 * three), not that many per database, a further one only while slow statements would otherwise
 * hold up the rest, and at most `size - 1` for any one database, so one database's runaway
 * queries leave a process to the others. Each process is bounded by DECODEX_SQLITE_MEMORY_MB
 * (default 512), so the pool by `size` times that. The first call decides the size.
 */
export function sharedSqliteProcessPool(env: NodeJS.ProcessEnv = process.env, size = DEFAULT_SQLITE_POOL_SIZE): SqliteProcessPool {
  if (!shared || shared.isClosed) {
    const memory = env.DECODEX_SQLITE_MEMORY_MB;
    const memoryLimitMb = memory === undefined || memory === '' ? undefined : Number(memory);
    shared = new SqliteProcessPool({ size, perDatabase: Math.max(1, size - 1), spareAfterMs: SHARED_SPARE_AFTER_MS, memoryLimitMb });
  }
  return shared;
}

/** A statement running this long is slow enough that work waiting behind it gets a second process. */
export const SHARED_SPARE_AFTER_MS = 1000;
