import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { loadFewShotManifest, retrieveFewShotExamples } from '../../activities/knowledge/few-shot-index';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { taskQueue } from '../../core/task-queues';
import type { buildFewShotIndex } from '../../workflows/build-few-shot-index';
import { DATASETS } from '../../devkit/datasets';
import { startTestStack, UNUSED_LLM_ENV, type TestStack } from '../../devkit/test-workers';

const train = JSON.parse(readFileSync(path.join(DATASETS, 'spider-syn', 'train_spider.json'), 'utf8')) as {
  db_id: string;
  SpiderQuestion: string;
  query: string;
}[];
/** Spider's train file repeats a few (database, question, SQL) triples: each is one example. */
const UNIQUE = new Set(train.map((q) => `${q.db_id}\n${q.SpiderQuestion.trim()}\n${q.query.trim()}`)).size;

/** The few-shot index job over all of Spider's training questions, on the real dev server and embedded store. */
describe('buildFewShotIndex', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack(UNUSED_LLM_ENV);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('pages every Spider training question into the index (continuing as new), then the few-shot path can read it', async () => {
    const handle = await stack.client.client.workflow.start<typeof buildFewShotIndex>('buildFewShotIndex', {
      taskQueue: taskQueue('offline', stack.queuePrefix),
      workflowId: `few-shot-${process.pid}`,
      args: [{ sources: ['spider-train'], datasetsRoot: DATASETS, pageSize: 2_000, pagesPerRun: 2 }],
    });
    const result = await handle.result();
    expect(UNIQUE).toBeGreaterThan(6_900);
    expect(result.examples).toBe(UNIQUE);
    // 4 pages of 2,000 at 2 pages per run: the job continued as new at least once.
    const runs = [];
    for await (const w of stack.client.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) runs.push(w.runId);
    expect(runs.length).toBeGreaterThanOrEqual(2);

    const store = openSqliteArtifactStore(stack.artifactsFile);
    const vectors = new EmbeddedVectorStore(stack.vectorsDir!);
    try {
      expect(await loadFewShotManifest(store)).toMatchObject({ collection: result.collection, count: UNIQUE, sources: ['spider-train'] });
      expect(await vectors.count(result.collection)).toBe(UNIQUE);
      const found = await retrieveFewShotExamples({ store, vectors }, 'How many pets are owned by students older than 20?', 3);
      expect(found).toHaveLength(3);
      for (const e of found) expect(e.question).toMatch(/^how many /i);
      expect(found[0].skeleton).toMatch(/NUMBER/);
    } finally {
      await vectors.close();
      await store.close();
    }
  }, 180_000);
});
