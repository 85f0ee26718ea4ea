import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

export interface ResourcePeaks {
  /** Highest resident set seen of any one sampled process, in MB. */
  rssMb: number;
  /** Most bytes seen at once in temp files the processes held open (SQLite's: unlinked, or under `tempDir`). */
  tempBytes: number;
}

/**
 * Samples processes from /proc while a statement runs: their resident memory and the temp files
 * they hold open. SQLite unlinks a temp file as soon as it opens it, so a directory listing
 * never shows one; its open descriptor does, with its size.
 */
export function sampleProcesses(pids: () => number[], tempDir: string, everyMs = 50): { stop(): ResourcePeaks } {
  const peaks: ResourcePeaks = { rssMb: 0, tempBytes: 0 };
  const sample = () => {
    for (const pid of pids()) {
      peaks.rssMb = Math.max(peaks.rssMb, rssMb(pid));
      peaks.tempBytes = Math.max(peaks.tempBytes, openTempBytes(pid, tempDir));
    }
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Math.max(...['VmRSS', 'VmHWM'].map((key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)));
    return kb / 1024;
  } catch {
    return 0; // gone between listing and reading
  }
}

function openTempBytes(pid: number, tempDir: string): number {
  let total = 0;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (!target.startsWith('/') || !(target.endsWith(' (deleted)') || target.startsWith(tempDir))) continue;
        total += statSync(`/proc/${pid}/fd/${fd}`).size;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // the process is gone
  }
  return total;
}
