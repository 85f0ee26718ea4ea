/** The exit code of a command ended by a signal, as a shell reports it (128 + the signal's number). */
export const SIGNAL_EXIT_CODES: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/** Thrown out of a client session a signal ended, after it said what became of its run: runDecodex returns `exitCode`. */
export class Interrupted extends Error {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
  get exitCode(): number {
    return SIGNAL_EXIT_CODES[this.signal];
  }
}

/**
 * Ctrl-C (SIGINT) and `timeout`/`kill` (SIGTERM) while a command waits on a run: `signal` settles
 * with the first, so the command can say what becomes of its run and stop its workers; a second
 * one ends the process at once, for an operator who will not wait for that. Without this,
 * Temporal's runtime took SIGTERM to shut the in-process workers down and left the command
 * waiting for ever on a run nothing would move.
 */
export function catchInterrupts(): { signal: Promise<'SIGINT' | 'SIGTERM'>; dispose(): void } {
  let first: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  const signal = new Promise<'SIGINT' | 'SIGTERM'>((resolve) => (first = resolve));
  let caught = false;
  const handler = (name: 'SIGINT' | 'SIGTERM') => {
    if (caught) process.exit(SIGNAL_EXIT_CODES[name]);
    caught = true;
    first?.(name);
  };
  const onInt = () => handler('SIGINT');
  const onTerm = () => handler('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
