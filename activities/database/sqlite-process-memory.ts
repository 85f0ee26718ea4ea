import { execFileSync } from 'node:child_process';

/**
 * The memory bound of one SQLite query process. better-sqlite3 is built with
 * SQLITE_DEFAULT_MEMSTATUS=0, so SQLite's own `PRAGMA hard_heap_limit` is accepted and ignored
 * (measured: a 300-million-character printf succeeds under a 100 MB "limit"). What does hold is
 * the kernel's RLIMIT_DATA: past it, SQLite's malloc returns NULL and the statement fails with
 * SQLITE_NOMEM ("out of memory") while the process lives on. Node cannot set a resource limit
 * itself, so the process is started through util-linux's `prlimit`, which sets it and then
 * execs Node in place (same pid, same IPC channel).
 */

/** Per query process; with temp_store=MEMORY this also bounds sorting and temp b-trees. */
export const DEFAULT_SQLITE_MEMORY_LIMIT_MB = 512;
/**
 * A query process's data segment before any statement (Node, tsx, better-sqlite3): about
 * 120 MB measured; a limit below this leaves nothing for statements.
 */
export const MIN_SQLITE_MEMORY_LIMIT_MB = 192;
/**
 * The rows one statement may hand back, as a share of the limit: they are held in the query
 * process, serialized to JSON and parsed again in the worker, so several copies exist at once.
 */
const RESULT_SHARE = 8;

/**
 * V8 flags of a query process (as bin/decodex-node sets them for decodex's own). Its heap holds
 * one statement's rows while they are encoded and sent, then garbage: with Node's defaults (16 MB
 * semi-spaces, an old generation let grow up to 4x its live size) that garbage kept the busiest
 * process ~15 MB larger after a preparation of every Spider database (bench:prepare, 2026-12-01).
 */
export const QUERY_PROCESS_NODE_FLAGS = ['--max-semi-space-size=1', '--heap-growing-percent=30'];

let prlimitPath: string | null | undefined;

function findPrlimit(): string | null {
  if (prlimitPath === undefined) {
    try {
      prlimitPath = execFileSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
    } catch {
      prlimitPath = null;
    }
  }
  return prlimitPath;
}

export interface ProcessLaunch {
  command: string;
  args: string[];
}

/** How to start `node <execArgv> <entry>` so that its data segment cannot grow past `limitMb`. */
export function boundedNodeLaunch(entry: string, execArgv: string[], limitMb: number): ProcessLaunch {
  const prlimit = findPrlimit();
  if (!prlimit) {
    throw new Error(
      `the SQLite query processes' memory bound (${limitMb} MB) needs the prlimit command (util-linux), which is not on PATH; install util-linux`,
    );
  }
  const bytes = limitMb * 1024 * 1024;
  return { command: prlimit, args: [`--data=${bytes}`, '--', process.execPath, ...QUERY_PROCESS_NODE_FLAGS, ...execArgv, entry] };
}

export function checkMemoryLimitMb(limitMb: number): void {
  if (!(Number.isInteger(limitMb) && limitMb >= MIN_SQLITE_MEMORY_LIMIT_MB)) {
    throw new RangeError(`SQLite query process memory limit must be an integer of at least ${MIN_SQLITE_MEMORY_LIMIT_MB} MB, got ${limitMb}`);
  }
}

/** The bytes of rows one statement may return before it is stopped with ResultTooLarge. */
export function resultByteBound(limitMb: number): number {
  return Math.floor((limitMb * 1024 * 1024) / RESULT_SHARE);
}
