import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import Database from 'better-sqlite3';
import { QdrantVectorStore } from '../../activities/vectors/qdrant-vector-store';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';
import { describeWithQdrant } from '../support/qdrant-tests';
import { startQdrant, type RunningQdrant } from '../../devkit/qdrant';
import { createSyntheticDatabase } from '../../devkit/synthetic-database';
import { startTestStack, UNUSED_LLM_ENV, type TestStack } from '../../devkit/test-workers';
import { activityRecords } from '../../devkit/activity-history';

const PREFIX = 'outage_';

/** The failure of the first pending activity that has one: what the Web UI shows while a step retries. */
async function waitForRetriedFailure(handle: WorkflowHandle): Promise<{ activity: string; type: string; message: string }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const pending of (await handle.describe()).raw.pendingActivities ?? []) {
      const failure = pending.lastFailure;
      if (failure?.message) {
        return { activity: pending.activityType?.name ?? '', type: failure.applicationFailureInfo?.type ?? '', message: failure.message };
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no activity failed while Qdrant was down');
}

/**
 * Qdrant stops in the middle of a preparation (its own server, so the shared one is not
 * disturbed): the index step fails retryably with a message that names Qdrant, Temporal retries
 * it, and once Qdrant is back (same storage) the run completes with every point in place.
 */
describeWithQdrant('prepareDatabase while Qdrant stops and comes back', 'binary', (server) => {
  let qdrant: RunningQdrant;
  let stack: TestStack;
  let embedded: PreparationHarness;

  beforeAll(async () => {
    qdrant = await startQdrant(server().binary);
    stack = await startTestStack(UNUSED_LLM_ENV, { qdrant: { url: qdrant.url, prefix: PREFIX } });
    embedded = startPreparationHarness();
  });
  afterAll(async () => {
    await embedded?.close();
    await stack?.stop();
    await qdrant?.dispose();
  });

  it('fails the index step retryably while Qdrant is down and completes with the same points once it is back', async () => {
    // Enough text values (tens of thousands) that indexing surely outlasts stopping Qdrant.
    const database = createSyntheticDatabase(mkdtempSync(path.join(os.tmpdir(), 'decodex-outage-')), { tables: 2, columns: 10, rows: 3000 });
    const request = { database, config: { exploration: { useLlm: false, maxCandidatePairs: 2 } } };
    // Exact search: the check below is about which points survived, not about HNSW's recall.
    const reader = new QdrantVectorStore({ url: qdrant.url, namespace: PREFIX, exactSearch: true });
    const started = await stack.client.startPreparation(request);
    // Crash Qdrant in the middle of the value index: some thousands of its points written.
    for (;;) {
      const progress = await stack.client.progress(started.workflowId).catch(() => null);
      if (progress && !['inspect', 'profile', 'index'].includes(progress.step))
        throw new Error(`the run passed the index step (${progress.step}) before Qdrant was stopped`);
      const values = (await reader.listCollections()).find((name) => name.endsWith('-values'));
      if (values && (await reader.count(values)) >= 2_000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await qdrant.crash();

    const failure = await waitForRetriedFailure(started.handle);
    expect(failure.activity).toBe('buildIndices');
    expect(failure.type).toBe('VectorStoreUnavailableError');
    expect(failure.message).toMatch(new RegExp(`^Qdrant at ${qdrant.url} is unreachable \\(.+\\) during .+; the step is retried`));

    await qdrant.start();
    const result = await started.handle.result();
    expect(result.status).toBe('prepared');
    const attempts = (await activityRecords(started.handle)).filter((a) => a.name === 'buildIndices');
    expect(Math.max(...attempts.map((a) => a.attempt))).toBeGreaterThan(1);

    // The points are those an uninterrupted run puts in the embedded store: same count, and
    // each sampled value is found, as itself, at the top of both.
    const { manifest } = result;
    const baseline = await embedded.index(database);
    expect(baseline.manifest.collections).toEqual(manifest.collections);
    const { values, profiles } = manifest.collections;
    expect(manifest.counts.valuesIndexed).toBeGreaterThan(20_000);
    expect(await reader.count(values)).toBe(manifest.counts.valuesIndexed);
    expect(await embedded.vectors.count(values)).toBe(manifest.counts.valuesIndexed);
    expect(await reader.count(profiles)).toBe(await embedded.vectors.count(profiles));
    const sqlite = new Database(database, { readonly: true });
    const samples = [
      sqlite.prepare('SELECT t0_col_0 FROM table_0 WHERE id = 17').pluck().get() as string,
      sqlite.prepare('SELECT t1_col_7 FROM table_1 WHERE id = 2999').pluck().get() as string,
      sqlite.prepare('SELECT t1_col_4 FROM table_1 WHERE id = 5').pluck().get() as string,
    ];
    sqlite.close();
    for (const sample of samples) {
      const [vector] = await embedded.embedders.values.embed([sample]);
      const [fromQdrant] = await reader.search(values, vector, { k: 1 });
      const [fromEmbedded] = await embedded.vectors.search(values, vector, { k: 1 });
      expect(fromQdrant.payload.value).toBe(sample);
      expect(fromQdrant.score).toBeCloseTo(1, 5);
      expect(fromEmbedded.payload.value).toBe(sample);
    }
  }, 180_000);
});
