import { resolveRuntimeConfig } from '../core/runtime-config';
import { askCommand, demoCommand } from './commands/ask';
import { benchCommand } from './commands/bench';
import { benchCompareCommand } from './commands/bench-compare';
import { buildKnowledgeCommand } from './commands/build-knowledge';
import { log, UsageError, type Command } from './commands/command';
import { Interrupted } from './commands/interrupt';
import { followCommand } from './commands/follow';
import { mineRulesCommand } from './commands/mine-rules';
import { pipelineCommand } from './commands/pipeline';
import { prepareCommand } from './commands/prepare';
import { serverCommand } from './commands/server';
import { statusCommand } from './commands/status';
import { workerCommand } from './commands/worker';

/** Every subcommand, one file each under cli/commands/. */
export const COMMANDS: Command[] = [
  demoCommand,
  askCommand,
  serverCommand,
  statusCommand,
  workerCommand,
  benchCommand,
  benchCompareCommand,
  prepareCommand,
  mineRulesCommand,
  buildKnowledgeCommand,
  followCommand,
  pipelineCommand,
];

const USAGE = `decodex: durable text-to-SQL on Temporal

Usage:
${COMMANDS.map((c) => `  decodex ${c.usage}`).join('\n')}

\`decodex <command> --help\` shows a command's usage with examples.
Environment: see README.md (DECODEX_LLM_*, TEMPORAL_ADDRESS, DECODEX_HOME, ...).`;

/** What `decodex <name> --help` prints, and what follows a usage error of that command. */
export function commandHelp(command: Command): string {
  return [`Usage: decodex ${command.usage}`, '', 'Examples:', ...command.examples.map((e) => `  ${e}`)].join('\n');
}

/** `--help` / `-h` anywhere before a `--` (after it, words are the command's own, e.g. a question). */
function wantsHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** node:util parseArgs reports a wrong command line as a TypeError with one of these codes: a usage mistake like any other. */
function asUsageError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_') ? new UsageError((err as Error).message) : err;
}

/**
 * The whole `decodex` command line, minus the process: runs the subcommand and returns the exit
 * code; a usage mistake (exit 2) is printed with the usage of the command that was called (the
 * whole list when no command was recognised), any other failure with its message (exit 1).
 */
export async function runDecodex(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    log(`unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    return await command.run(resolveRuntimeConfig(process.env, process.cwd()), rest);
  } catch (caught) {
    // The session said what became of its run; the exit code tells the shell which signal ended it.
    if (caught instanceof Interrupted) return caught.exitCode;
    const err = asUsageError(caught);
    if (!(err instanceof UsageError)) throw err;
    log(`${err.message}\n\n${commandHelp(command)}`);
    return 2;
  }
}
