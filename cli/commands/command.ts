import type { RuntimeConfig } from '../../core/runtime-config';

/** One `decodex <name>` subcommand. `run` returns the process exit code. */
export interface Command {
  name: string;
  /** One usage line for `decodex help` (and the head of `decodex <name> --help`). */
  usage: string;
  /** Command lines that work as written, shown by `decodex <name> --help`. */
  examples: string[];
  run(config: RuntimeConfig, args: string[]): Promise<number>;
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const log = (line: string) => process.stderr.write(line + '\n');

export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
