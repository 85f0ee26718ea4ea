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
import { runCarryScript } from './carry-script';
import { exportCarriedAnswers, importCarriedAnswers } from './llm-answer-carry';

runCarryScript('carry-answers.ts', '.jsonl.gz', {
  export: async (_home, store, file) => `answers_in_file: ${await exportCarriedAnswers(store, file)}\n`,
  import: async (_home, store, file) => `answers_imported: ${await importCarriedAnswers(store, file)}\n`,
});
