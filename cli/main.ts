import { runDecodex } from './run-decodex';

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

runDecodex(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`decodex: ${(err as Error).message ?? err}\n`);
    process.exit(1);
  },
);
