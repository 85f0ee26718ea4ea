/**
 * How each local-model child script (run by local-model.test.ts in its own Node process) ends:
 * exit 0 when `main` resolves; otherwise its error's stack on stderr, for the test's message, and exit 1.
 */
export function runChildMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
