import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { retrieveDecompositionExamples, storeDecompositionExamples } from '../../activities/knowledge/decomposition-examples';
import { exportKnowledge, knowledgeFingerprint } from '../../activities/knowledge/knowledge-bundle';
import { loadCorrectionRules, publishCorrectionRules } from '../../activities/knowledge/knowledge-store';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import type { CorrectionRule, DecompositionExample } from '../../core/knowledge/knowledge-types';
import { bundlePart, loadLearnedKnowledge, readKnowledgeFile, writeKnowledgeFile } from '../../bench/knowledge-carry';
import { benchmarkOf } from '../../bench/configuration-runs';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { UNUSED_LLM_ENV } from '../../devkit/test-workers';

/**
 * The learned knowledge carried between homes (bench/knowledge-carry.ts): what one home's offline
 * jobs built is exported as a bundle file and loaded into another, where the decomposer retrieves
 * the same examples and correction reads the same rules; the bench's ids say what a home holds.
 */
const dag = (question: string) => ({ nodes: [{ id: 0, question }], edges: [] as [number, number][] });
const EXAMPLES: DecompositionExample[] = [
  { question: 'Which singers are older than the average singer?', database: 'concert_singer', dag: dag('What is the average age of singers?') },
  { question: 'How many pilots flew more than three flights?', database: 'flight_1', dag: dag('How many flights did each pilot fly?'), evidence: 'a hint' },
];
const RULES: CorrectionRule[] = [{ id: 'r1', gist: 'integer division', badPattern: 'a / b', correctPattern: 'CAST(a AS REAL) / b', fix: 'cast the numerator' }];
const HASHED = { DECODEX_EMBEDDER: 'hashed' };

function home() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-knowledge-'));
  return { dir, store: openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite')), vectors: () => new EmbeddedVectorStore(path.join(dir, 'vectors')) };
}

describe('learned knowledge carried between homes', () => {
  it('exports examples and rules, and another home loads them: same retrieval, same rules, same fingerprint', async () => {
    const built = home();
    const builtVectors = built.vectors();
    await storeDecompositionExamples({ store: built.store, vectors: builtVectors, embedder: new HashedEmbedder() }, [...EXAMPLES].reverse());
    await publishCorrectionRules(built.store, RULES, { source: 'mined' });
    const bundle = await exportKnowledge({ store: built.store, vectors: builtVectors });
    expect(bundle).toEqual({ decompositions: [EXAMPLES[0], EXAMPLES[1]], rules: RULES });
    await builtVectors.close();

    const file = path.join(built.dir, 'knowledge.json.gz');
    writeKnowledgeFile(file, bundle);
    expect(readKnowledgeFile(file)).toEqual(bundle);

    const fresh = home();
    const logged: string[] = [];
    const fingerprint = await loadLearnedKnowledge(fresh.dir, fresh.store, file, HASHED, (line) => logged.push(line));
    expect(logged).toEqual([`2 decomposition examples and 1 correction rules loaded into the home (${file})`]);
    expect(fingerprint).toBe(knowledgeFingerprint(bundle));
    expect(await loadCorrectionRules(fresh.store)).toEqual(RULES);
    const vectors = fresh.vectors();
    const found = await retrieveDecompositionExamples(
      { store: fresh.store, vectors, embedder: new HashedEmbedder() },
      'Which singers are older than average?',
      1,
    );
    expect(found).toEqual([EXAMPLES[0]]);
    await vectors.close();
    // Loading it again changes nothing the ids see.
    expect(await loadLearnedKnowledge(fresh.dir, fresh.store, file, HASHED, () => undefined)).toBe(fingerprint);
    // A home given knowledge before says so even when this run names none.
    expect(await loadLearnedKnowledge(fresh.dir, fresh.store, '', HASHED, () => undefined)).toBe(fingerprint);
    await built.store.close();
    await fresh.store.close();
  });

  it('exports one part alone when asked, the other empty, so a knowledge base still being built stays out of the bundle', () => {
    const bundle = { decompositions: EXAMPLES, rules: RULES };
    expect(bundlePart(bundle, null)).toBe(bundle);
    expect(bundlePart(bundle, 'rules')).toEqual({ decompositions: [], rules: RULES });
    expect(bundlePart(bundle, 'decompositions')).toEqual({ decompositions: EXAMPLES, rules: [] });
    expect(() => bundlePart(bundle, 'notes')).toThrow('--only takes rules or decompositions, got "notes"');
  });

  it("the bench's benchmark ids carry the fingerprint of the home's knowledge, so runs with other knowledge do not mix", () => {
    const quick = { preset: 'quick', ablations: [] };
    const sample = { size: 2, seed: 1 };
    const config = loadLlmConfig(UNUSED_LLM_ENV);
    const without = benchmarkOf('accuracy', quick, 'spider-dev', sample, config, { fewShot: [], notes: false }).benchmarkId;
    const withKnowledge = benchmarkOf('accuracy', quick, 'spider-dev', sample, config, { fewShot: [], notes: false, learned: 'ab12cd34' }).benchmarkId;
    expect(withKnowledge).toBe(`${without}-kn-ab12cd34`);
  });

  it('a home without knowledge has no fingerprint; a missing file is none; a file that is no bundle is refused, named', async () => {
    const empty = home();
    expect(await loadLearnedKnowledge(empty.dir, empty.store, path.join(empty.dir, 'absent.json.gz'), HASHED, () => undefined)).toBeUndefined();
    const bad = path.join(empty.dir, 'bad.json.gz');
    writeFileSync(bad, 'not gzip');
    expect(() => readKnowledgeFile(bad)).toThrow(`${bad} is not a gzipped JSON knowledge bundle`);
    writeFileSync(bad, gzipSync(JSON.stringify({ decompositions: [{ question: 'q' }], rules: [] })));
    expect(() => readKnowledgeFile(bad)).toThrow(`${bad} is not a knowledge bundle`);
    await empty.store.close();
  });
});
