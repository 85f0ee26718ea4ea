/**
 * Carries a home's model answers to and from a file in the repository, for the long jobs that
 * outlive a session (the decomposition knowledge base and rule mining on Spider train take many
 * CPU-hours): `export` writes the home's LLM cache into the file (keeping what the file already
 * holds), `import` loads the file into a fresh home before the same job is started again, which
 * then replays every answered call and asks the model only for the rest.
 *
 *   DECODEX_HOME=/path/home npx tsx bench/carry-answers.ts export bench/carry/knowledge-llm-answers.jsonl.gz
 *   DECODEX_HOME=/path/home npx tsx bench/carry-answers.ts import bench/carry/knowledge-llm-answers.jsonl.gz
 *
 * The accuracy bench does the same by itself (`--carry`).
 */
import path from 'node:path';
import { artifactStoreFromEnv } from '../activities/artifacts/artifact-store-from-env';
import { exportCarriedAnswers, importCarriedAnswers } from './llm-answer-carry';

async function main(): Promise<number> {
  const [direction, file] = process.argv.slice(2);
  const home = process.env.DECODEX_HOME;
  if ((direction !== 'export' && direction !== 'import') || !file || !home) {
    process.stderr.write('usage: DECODEX_HOME=<home> npx tsx bench/carry-answers.ts export|import <file.jsonl.gz>\n');
    return 2;
  }
  const store = await artifactStoreFromEnv(path.resolve(home), process.env);
  try {
    if (direction === 'export') process.stdout.write(`answers_in_file: ${await exportCarriedAnswers(store, path.resolve(file))}\n`);
    else process.stdout.write(`answers_imported: ${await importCarriedAnswers(store, path.resolve(file))}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
