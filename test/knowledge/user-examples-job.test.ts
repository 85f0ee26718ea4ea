import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { loadFewShotManifest, retrieveFewShotExamples } from '../../activities/knowledge/few-shot-index';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { FEW_SHOT_JOB_DEFAULTS, type BuildFewShotIndexInput } from '../../core/knowledge/few-shot-job-types';
import { taskQueue } from '../../core/task-queues';
import type { buildFewShotIndex } from '../../workflows/build-few-shot-index';
import { startTestStack, UNUSED_LLM_ENV, type TestStack } from '../../devkit/test-workers';
import { BAD_EXAMPLES, BAD_LINES, GOOD_EXAMPLES, PRODUCT_ROWS, writeOnlyBadExamples, writeUserExamples, type UserExamples } from '../support/user-examples';

/**
 * A user's own examples through the real few-shot index job: the real dev server, workers and
 * embedded store, the SQL of every example run on the user's own SQLite database through the
 * product's guarded read-only execution.
 */
describe('buildFewShotIndex with a user file of examples', () => {
  let stack: TestStack;
  let dir: string;
  let shop: UserExamples;
  /** A stand-in of Spider's train file: its examples name a database that exists nowhere here, so they would fail if they were run. */
  let datasetsRoot: string;
  beforeAll(async () => {
    stack = await startTestStack(UNUSED_LLM_ENV, { queues: ['offline'] });
    dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-user-examples-'));
    shop = writeUserExamples(dir);
    datasetsRoot = path.join(dir, 'datasets');
    mkdirSync(path.join(datasetsRoot, 'spider-syn'), { recursive: true });
    writeFileSync(
      path.join(datasetsRoot, 'spider-syn', 'train_spider.json'),
      JSON.stringify([
        { db_id: 'concert_singer', SpiderQuestion: 'Count the singers on file.', query: 'SELECT count(*) FROM singer' },
        { db_id: 'concert_singer', SpiderQuestion: 'Show the names of all stadiums.', query: 'SELECT name FROM stadium' },
      ]),
    );
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const run = (sources: string[], id: string) =>
    stack.client.client.workflow.execute<typeof buildFewShotIndex>('buildFewShotIndex', {
      taskQueue: taskQueue('offline', stack.queuePrefix),
      workflowId: `${id}-${process.pid}`,
      // Pages of 3: the file's examples spread over several pages and runs.
      args: [{ ...FEW_SHOT_JOB_DEFAULTS, sources, datasetsRoot, pageSize: 3, pagesPerRun: 2, sqlTimeoutMs: 3_000 } satisfies BuildFewShotIndexInput],
    });

  it('indexes the pairs whose SQL runs, rejects the others with their line and reason, and leaves the database as it was', async () => {
    const before = shop.fingerprint();
    const result = await run(['spider-train', shop.file], 'user-examples');

    // Spider's two are indexed without being run; the file's five good ones after running.
    expect(result).toMatchObject({ examples: 2 + GOOD_EXAMPLES.length, rejected: BAD_EXAMPLES.length, files: { [shop.file]: { indexed: 5, rejected: 3 } } });
    expect(result.rejections).toHaveLength(3);
    BAD_EXAMPLES.forEach((bad, i) => {
      expect(result.rejections[i]).toMatchObject({ source: shop.file, line: BAD_LINES[i], question: bad.question });
      expect(result.rejections[i].reason).toMatch(bad.reason);
    });
    // Nothing was written: the DELETE never ran.
    expect(shop.productRows()).toBe(PRODUCT_ROWS);
    expect(shop.fingerprint()).toBe(before);

    const store = openSqliteArtifactStore(stack.artifactsFile);
    const vectors = new EmbeddedVectorStore(stack.vectorsDir!);
    try {
      expect(await loadFewShotManifest(store)).toMatchObject({ collection: result.collection, count: 7, sources: ['spider-train', shop.file] });
      expect(await vectors.count(result.collection)).toBe(7);
      const deps = { store, vectors };
      // Every example in the index, for a question that is none of them.
      const all = await retrieveFewShotExamples(deps, 'Which supplier ships the fewest parcels?', 20);
      expect(all.map((e) => e.question).sort()).toEqual(
        [...GOOD_EXAMPLES.map((e) => e.question), 'Count the singers on file.', 'Show the names of all stadiums.'].sort(),
      );
      for (const bad of BAD_EXAMPLES) expect(all.map((e) => e.sql)).not.toContain(bad.sql);
      // Each good pair is the nearest example of a question of its shape.
      const [nearest] = await retrieveFewShotExamples(deps, 'How many pets weigh more than 3?', 1);
      expect(nearest).toMatchObject({ question: GOOD_EXAMPLES[0].question, sql: GOOD_EXAMPLES[0].sql, database: 'shop' });
      // A question of the user's database has that database's examples withheld, as a training question's are: by label or db_id.
      const withheld = await retrieveFewShotExamples(deps, 'Which supplier ships the fewest parcels?', 20, 'shop');
      expect(withheld.map((e) => e.database).sort()).toEqual(['concert_singer', 'concert_singer', 'shop_orders']);
    } finally {
      await vectors.close();
      await store.close();
    }
  }, 120_000);

  it('fails with a clear error when none of a file’s examples runs, and publishes nothing', async () => {
    const file = writeOnlyBadExamples(dir);
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const published = await loadFewShotManifest(store);
    const failed = await run([file], 'user-examples-broken').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    const cause = (failed as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'NoRunnableExamples' });
    expect((cause as ApplicationFailure).message).toMatch(
      /^none of the 2 examples of .*broken\.jsonl could be run on its database, so none is indexed \(first, line 1: sql_error: .*no such column: colour\)$/,
    );
    try {
      expect(await loadFewShotManifest(store)).toEqual(published);
    } finally {
      await store.close();
    }
    expect(shop.productRows()).toBe(PRODUCT_ROWS);
  }, 120_000);
});
