import path from 'node:path';
import { artifactStoreFromEnv } from '../activities/artifacts/artifact-store-from-env';
import type { ArtifactStore } from '../activities/artifacts/artifact-store';

/** What a carry script does in one direction, given the home's path and store and the file's path; returns its `name: value` lines. */
export type CarryDirection = (home: string, store: ArtifactStore, file: string) => Promise<string>;

/**
 * The command line of the scripts that carry a home's contents to and from a file in the
 * repository (bench/carry-answers.ts, bench/carry-knowledge.ts): `export|import <file>` with
 * DECODEX_HOME naming the home; usage errors exit 2, failures 1 with their message.
 */
export function runCarryScript(script: string, suffix: string, directions: { export: CarryDirection; import: CarryDirection }): void {
  const main = async (): Promise<number> => {
    const [direction, file] = process.argv.slice(2);
    const home = process.env.DECODEX_HOME;
    if ((direction !== 'export' && direction !== 'import') || !file || !home) {
      process.stderr.write(`usage: DECODEX_HOME=<home> npx tsx bench/${script} export|import <file${suffix}>\n`);
      return 2;
    }
    const store = await artifactStoreFromEnv(path.resolve(home), process.env);
    try {
      process.stdout.write(await directions[direction](path.resolve(home), store, path.resolve(file)));
      return 0;
    } finally {
      await store.close();
    }
  };
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  );
}
