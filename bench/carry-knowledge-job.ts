/**
 * Carries a decomposition knowledge base still being built to and from a file in the repository:
 * `export` writes the home's job records and the examples stored so far, `import` loads them
 * into a fresh home, where the same `build-knowledge decompositions` command then resumes after
 * the recorded questions (activities/knowledge/decomposition-kb-records.ts says why the model's
 * answers alone do not resume it).
 *
 *   DECODEX_HOME=/path/home npx tsx bench/carry-knowledge-job.ts export bench/carry/knowledge-job.json.gz
 *   DECODEX_HOME=/path/home npx tsx bench/carry-knowledge-job.ts import bench/carry/knowledge-job.json.gz
 *
 * A finished base travels as a knowledge bundle instead (bench/carry-knowledge.ts).
 */
import { existsSync } from 'node:fs';
import { indexEmbeddersFromEnv } from '../activities/indexing/index-backends';
import { exportDecompositionJobs, importDecompositionJobs, type DecompositionJobCarry } from '../activities/knowledge/decomposition-kb-records';
import { runCarryScript } from './carry-script';
import { readGzippedJson, withHomeVectors, writeGzippedJson } from './knowledge-carry';

const counts = (c: { records: number; examples: number }) => `question_records: ${c.records}\ndecomposition_examples: ${c.examples}\n`;

runCarryScript('carry-knowledge-job.ts', '.json.gz', {
  export: (home, store, file) =>
    withHomeVectors(home, process.env, async (vectors) => {
      const carry = await exportDecompositionJobs({ store, vectors });
      writeGzippedJson(file, carry);
      return counts({ records: carry.records.length, examples: carry.examples.length });
    }),
  import: async (home, store, file) => {
    if (!existsSync(file)) throw new Error(`${file} does not exist`);
    const carry = readGzippedJson<DecompositionJobCarry>(file);
    if (!Array.isArray(carry.records) || !Array.isArray(carry.examples)) throw new Error(`${file} is not a knowledge job carry {records, examples}`);
    return counts(
      await withHomeVectors(home, process.env, (vectors) =>
        importDecompositionJobs({ store, vectors, embedder: indexEmbeddersFromEnv(process.env).questions }, carry),
      ),
    );
  },
});
