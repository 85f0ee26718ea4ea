import { resolveRuntimeConfig } from '../core/runtime-config';
import { askCommand, demoCommand } from './commands/ask';
import { benchCommand } from './commands/bench';
import { benchCompareCommand } from './commands/bench-compare';
import { log, UsageError, type Command } from './commands/command';
import { pipelineCommand } from './commands/pipeline';
import { prepareCommand } from './commands/prepare';
import { mineRulesCommand } from './commands/mine-rules';
import { buildKnowledgeCommand } from './commands/build-knowledge';
import { serverCommand } from './commands/server';
import { workerCommand } from './commands/worker';

/** Every subcommand, one file each under cli/commands/. */
const COMMANDS: Command[] = [
  demoCommand,
  askCommand,
  serverCommand,
  workerCommand,
  benchCommand,
  benchCompareCommand,
  prepareCommand,
  mineRulesCommand,
  buildKnowledgeCommand,
  pipelineCommand,
];

const USAGE = `decodex: durable text-to-SQL on Temporal

Usage:
${COMMANDS.map((c) => `  decodex ${c.usage}`).join('\n')}

Environment: see README.md (DECODEX_LLM_*, TEMPORAL_ADDRESS, DECODEX_HOME, ...).`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`);
  return command.run(resolveRuntimeConfig(process.env, process.cwd()), rest);
}

/**
 * A reader that went away (`decodex ask ... | head`) is not an error of the command: without a
 * listener, the EPIPE of the next write would be thrown as an unhandled 'error' event, stack and all.
 * The command finishes and tears down as usual; what it still writes goes nowhere.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : `decodex: ${(err as Error).message ?? err}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
