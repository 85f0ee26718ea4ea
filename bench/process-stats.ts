import { readFileSync, readdirSync } from 'node:fs';

/**
 * Memory and CPU of processes, read from /proc (Linux), for the benchmarks' `peak_rss_mib`
 * and CPU lines.
 */

/** Peak resident memory (VmHWM) of a process, in KiB; 0 when it is gone. */
export function peakRssKib(pid: number): number {
  return statusKib(pid, 'VmHWM');
}

/** Resident memory now (VmRSS) of a process, in KiB; 0 when it is gone. */
export function rssKib(pid: number): number {
  return statusKib(pid, 'VmRSS');
}

function statusKib(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Children of every thread of `pid` (the Temporal core starts the dev server from its own thread). */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** CPU seconds (user + system) a process used so far. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Follows the peak memory and CPU of this process's children whose command line `matches`
 * (decodex runs every SQLite statement in a query process, replaced after a timeout, so each
 * one's peak is kept; workers bundle their workflows in a short-lived one).
 */
export function watchChildProcesses(
  matches: (command: string) => boolean,
  intervalMs = 200,
): { peakKib(): number; peaksKib(): number[]; peakTogetherKib(): number; cpuSeconds(): number; stop(): void } {
  const peaks = new Map<number, number>();
  // The most they held at one sample, together (short-lived ones count only while they live).
  let together = 0;
  // CPU so far of each, last seen (a process that exits keeps what it had used at the last sample).
  const cpu = new Map<number, number>();
  const sample = () => {
    let now = 0;
    for (const pid of childPids(process.pid)) {
      if (!matches(commandOf(pid))) continue;
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakRssKib(pid)));
      cpu.set(pid, Math.max(cpu.get(pid) ?? 0, cpuSeconds(pid)));
      now += rssKib(pid);
    }
    together = Math.max(together, now);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    peakKib: () => {
      sample();
      return [...peaks.values()].reduce((n, k) => n + k, 0);
    },
    /** Each query process's own peak, in the order they started. */
    peaksKib: () => {
      sample();
      return [...peaks.values()];
    },
    peakTogetherKib: () => {
      sample();
      return together;
    },
    /** CPU seconds all of them used (user + system). */
    cpuSeconds: () => {
      sample();
      return [...cpu.values()].reduce((n, s) => n + s, 0);
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Follows the peaks of this process's memory parts (process.memoryUsage(): V8 heap in use and
 * reserved, memory of C++ objects and buffers), to tell what its RSS is made of.
 */
export function watchMemoryParts(intervalMs = 200): { peaksKib(): Record<'heapUsed' | 'heapTotal' | 'external' | 'arrayBuffers', number>; stop(): void } {
  const peaks = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    for (const k of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[k] = Math.max(peaks[k], m[k] / 1024);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    peaksKib: () => {
      sample();
      return { ...peaks };
    },
    stop: () => clearInterval(timer),
  };
}
