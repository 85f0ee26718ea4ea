import { readFileSync } from 'node:fs';
import { childPids } from './process-stats';

/** A process and every process below it, root first. */
function processTree(root: number): number[] {
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
  return all;
}

function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/** Proportional set size: shared pages (PostgreSQL's shared buffers) divided among the processes mapping them, so a sum counts them once. */
function pssKib(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Memory and CPU of a server that runs as a tree of processes (PostgreSQL: the postmaster, a
 * backend per connection that comes and goes, its helpers), read from /proc (Linux):
 * - peakPssKib: the most the tree held together at one sample, in PSS;
 * - cpuSeconds: what the tree used so far: each live process's own, plus what the exited ones
 *   left in the root's children's times (the postmaster waits for every backend it started).
 */
export function watchProcessTree(root: number, intervalMs = 200): { peakPssKib(): number; cpuSeconds(): number; stop(): void } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      processTree(root).reduce((n, pid) => n + pssKib(pid), 0),
    );
  };
  const timer = setInterval(sample, intervalMs);
  return {
    peakPssKib: () => {
      sample();
      return peak;
    },
    cpuSeconds: () => {
      const [rootStat, ...below] = processTree(root).map(statFields);
      // utime, stime (fields 14-15 of /proc/<pid>/stat), then cutime, cstime of children waited for.
      const own = (f: string[] | null) => (f ? Number(f[11]) + Number(f[12]) : 0);
      const waited = rootStat ? Number(rootStat[13]) + Number(rootStat[14]) : 0;
      return (own(rootStat) + waited + below.reduce((n, f) => n + own(f), 0)) / 100;
    },
    stop: () => clearInterval(timer),
  };
}
