/**
 * Carries a home's learned knowledge (the decomposition knowledge base's examples, the current
 * correction rules) to and from a knowledge bundle file: `export` writes what the home that ran
 * `build-knowledge decompositions` and `mine-rules` holds, `import` loads a bundle into another
 * home (its examples embedded with that home's question embedder, DECODEX_EMBEDDER).
 *
 *   DECODEX_HOME=/path/home npx tsx bench/carry-knowledge.ts export bench/carry/knowledge.json.gz [--only rules|decompositions]
 *   DECODEX_HOME=/path/home npx tsx bench/carry-knowledge.ts import bench/carry/knowledge.json.gz
 *
 * `--only` exports one of the two parts (the other empty): a job still under way, such as a
 * knowledge base built over several sessions, stays out of the bundle until it is finished.
 *
 * The accuracy bench loads bench/carry/knowledge.json.gz by itself (`--knowledge`).
 */
import { existsSync } from 'node:fs';
import { runCarryScript } from './carry-script';
import { bundlePart, exportHomeKnowledge, importHomeKnowledge, readKnowledgeFile, writeKnowledgeFile } from './knowledge-carry';

const counts = (c: { decompositions: number; rules: number }) => `decomposition_examples: ${c.decompositions}\ncorrection_rules: ${c.rules}\n`;

runCarryScript('carry-knowledge.ts', '.json.gz', {
  export: async (home, store, file) => {
    const args = process.argv.slice(4);
    if (args.length && (args[0] !== '--only' || args.length !== 2))
      throw new Error(`export takes the file and at most --only rules|decompositions, got ${args.join(' ')}`);
    const only = args.length ? args[1] : null;
    const bundle = bundlePart(await exportHomeKnowledge(home, store, process.env), only);
    writeKnowledgeFile(file, bundle);
    return counts({ decompositions: bundle.decompositions.length, rules: bundle.rules.length });
  },
  import: async (home, store, file) => {
    if (!existsSync(file)) throw new Error(`${file} does not exist`);
    return counts(await importHomeKnowledge(home, store, process.env, readKnowledgeFile(file)));
  },
});
