/**
 * A one-line progress bar on stderr: redrawn in place on a terminal, and written as a new
 * line only when the phase changes (or every 10%) when stderr is a file or a pipe, so logs stay
 * readable.
 */
export interface Progress {
  step: string;
  done: number;
  total: number;
}

const WIDTH = 30;

export class ProgressBar {
  private lastLine = '';
  private lastStep = '';
  private lastDecile = -1;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  update(p: Progress): void {
    const fraction = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
    const filled = Math.round(fraction * WIDTH);
    const line = `${p.step.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${p.done}/${p.total}`;
    if (line === this.lastLine) return;
    this.lastLine = line;
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (p.step !== this.lastStep || decile !== this.lastDecile) this.out.write(line + '\n');
    this.lastStep = p.step;
    this.lastDecile = decile;
  }

  /** Ends the bar's line so what follows starts on a fresh one. */
  finish(): void {
    if (this.out.isTTY && this.lastLine) this.out.write('\n');
  }
}
