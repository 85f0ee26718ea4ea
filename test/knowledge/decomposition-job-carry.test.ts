import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { retrieveDecompositionExamples, storeDecompositionExamples } from '../../activities/knowledge/decomposition-examples';
import { createDecompositionKbActivities } from '../../activities/knowledge/decomposition-kb-activities';
import { exportDecompositionJobs, importDecompositionJobs, saveDecompositionRecord } from '../../activities/knowledge/decomposition-kb-records';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { DECOMPOSITION_KB_DEFAULTS, type BuildDecompositionKbInput } from '../../core/knowledge/decomposition-kb-types';
import { emptyUsage } from '../../core/usage';
import { writeUserExamples } from '../support/user-examples';

/**
 * A knowledge base still being built travels between homes as its records and examples
 * (bench/carry-knowledge-job.ts): the home it is loaded into resumes the same job after the
 * recorded questions, and its decomposer retrieves the examples stored so far.
 */
describe('a decomposition knowledge base job carried to another home', () => {
  it('resumes after the recorded questions, with their counts, spending and examples', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'decodex-kb-carry-'));
    const shop = writeUserExamples(root);
    const home = (name: string) => {
      const dir = path.join(root, name);
      const store = openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
      const vectors = new EmbeddedVectorStore(path.join(dir, 'vectors'));
      const embedder = new HashedEmbedder();
      const databases = new DatabaseRegistry(openTargetDatabase);
      return { store, vectors, embedder, activities: createDecompositionKbActivities({ artifacts: store, vectors, embedder, databases }) };
    };
    const input: BuildDecompositionKbInput = {
      ...DECOMPOSITION_KB_DEFAULTS,
      jobId: 'decompositions-shop',
      dataset: path.relative(process.cwd(), shop.file),
      datasetsRoot: '/nowhere',
      sample: { size: 5, seed: 1 },
    };

    const built = home('built');
    expect((await built.activities.openDecompositionJob(input)).total).toBe(5);
    const first = (await built.activities.nextDecompositionQuestions({ jobId: input.jobId, from: 0, count: 2 })).questions;
    const example = { question: first[0].question, database: first[0].dbId, dag: { nodes: [{ id: 0, question: 'Which products are there?' }], edges: [] } };
    await storeDecompositionExamples(built, [example]);
    const usage = { ...emptyUsage(), llmCalls: 6, promptTokens: 900 };
    for (const [i, q] of first.entries())
      await saveDecompositionRecord(built.store, input.jobId, {
        index: q.index,
        dbId: q.dbId,
        question: q.question,
        verdict: i === 0 ? 'correct' : 'wrong',
        stored: i === 0,
        hasDag: true,
        tokens: 900,
        llmCalls: 6,
        usage,
      });
    const carry = JSON.parse(JSON.stringify(await exportDecompositionJobs(built))) as Awaited<ReturnType<typeof exportDecompositionJobs>>;
    expect(carry.records.map((r) => r.record.index)).toEqual(first.map((q) => q.index));

    const fresh = home('fresh');
    expect(await importDecompositionJobs(fresh, carry)).toEqual({ records: 2, examples: 1 });
    const status = await fresh.activities.openDecompositionJob(input);
    expect(status).toMatchObject({ total: 5, done: 2, stored: 1, wrong: 1, withoutDag: 0, unusable: 0 });
    expect(status.usage.llmCalls).toBe(12);
    const rest = (await fresh.activities.nextDecompositionQuestions({ jobId: input.jobId, from: 0, count: 10 })).questions;
    expect(rest).toHaveLength(3);
    expect(rest.some((q) => first.some((f) => f.index === q.index))).toBe(false);
    // Retrieval never shows a question its own plan: asked by another question, the carried example is found.
    expect(await retrieveDecompositionExamples(fresh, `${first[0].question} Say it briefly.`, 1)).toEqual([example]);
  });
});
