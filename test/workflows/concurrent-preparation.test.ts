import { randomBytes } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { openMysqlArtifactStore } from '../../activities/artifacts/mysql-artifact-store';
import { ARTIFACT_KINDS } from '../../activities/prepared/preparation-artifacts';
import { missingParts } from '../../activities/preparation/verify-prepared-version';
import { QdrantVectorStore } from '../../activities/vectors/qdrant-vector-store';
import { preparedDatabaseId } from '../../core/preparation/database-id';
import type { PrepareDatabaseResult, PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import { startPreparationHarness } from '../../devkit/preparation-harness';
import { spiderDatabasePath } from '../../devkit/datasets';
import { createTestDatabase, type TestDatabase } from '../../devkit/mariadb';
import { describeWithQdrant } from '../support/qdrant-tests';
import { startTestStack, UNUSED_LLM_ENV, type TestStack } from '../../devkit/test-workers';

const NO_LLM = { exploration: { useLlm: false } };
/** Another profile configuration: another profile version, so every family's version differs. */
const OTHER_PROFILE = { ...NO_LLM, profile: { sampleValues: 5 } };

/**
 * A reader that loads the published manifest over and over while preparations run, and records
 * every time the version it names was not whole while that manifest stayed published (a
 * manifest replaced meanwhile may lawfully lose its old version: that is the switch).
 */
function watchPublished(store: ArtifactStore, vectors: QdrantVectorStore, databaseId: string) {
  const violations: string[] = [];
  let reads = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const before = await store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
      if (before) {
        const missing = await missingParts({ store, vectors }, databaseId, before.versions, []);
        const after = await store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
        if (missing.length && JSON.stringify(after) === JSON.stringify(before)) violations.push(`${before.versions.profile}: ${missing.join('; ')}`);
        reads++;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { violations, reads };
    },
  };
}

describeWithQdrant('two preparations of one database at once, on two deployments sharing MariaDB artifacts and Qdrant', 'server', (server) => {
  const prefix = `decodex_conc_${randomBytes(4).toString('hex')}_`;
  let artifacts: TestDatabase;
  let a: TestStack;
  let b: TestStack;
  let store: ArtifactStore;
  let vectors: QdrantVectorStore;

  beforeAll(async () => {
    artifacts = await createTestDatabase('conc_artifacts');
    const shared = { artifactsUrl: artifacts.url, qdrant: { url: server().url, prefix } };
    a = await startTestStack(UNUSED_LLM_ENV, shared);
    b = await startTestStack(UNUSED_LLM_ENV, shared);
    store = await openMysqlArtifactStore(artifacts.url);
    vectors = new QdrantVectorStore({ url: server().url, namespace: prefix });
  }, 120_000);
  afterAll(async () => {
    for (const name of (await vectors?.listCollections()) ?? []) await vectors.deleteCollection(name);
    await vectors?.close();
    await store?.close();
    await a?.stop();
    await b?.stop();
    await artifacts?.drop();
  });

  it('same configuration: both runs publish the one version, whole, and a reader never sees it incomplete', async () => {
    const database = spiderDatabasePath('concert_singer');
    const databaseId = preparedDatabaseId(database);
    const reader = watchPublished(store, vectors, databaseId);
    const [ra, rb] = await Promise.all([
      a.client.prepare({ database, config: NO_LLM }, { workflowId: `${prefix}same-a` }),
      b.client.prepare({ database, config: NO_LLM }, { workflowId: `${prefix}same-b` }),
    ]);
    const { violations, reads } = await reader.stop();
    expect(violations).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(['prepared', 'unchanged']).toContain(ra.result.status);
    expect(['prepared', 'unchanged']).toContain(rb.result.status);
    expect(rb.result.manifest.versions).toEqual(ra.result.manifest.versions);
    const current = await store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
    expect(current?.versions).toEqual(ra.result.manifest.versions);
    expect(await missingParts({ store, vectors }, databaseId, current!.versions, [])).toEqual([]);
    expect(await vectors.count(current!.collections.values)).toBe(current!.counts.valuesIndexed);
  }, 180_000);

  it('different configurations: the store ends with one whole version, the published one; a run that lost says why', async () => {
    const database = spiderDatabasePath('singer');
    const databaseId = preparedDatabaseId(database);
    const reader = watchPublished(store, vectors, databaseId);
    const settled = await Promise.allSettled([
      a.client.prepare({ database, config: NO_LLM }, { workflowId: `${prefix}diff-a` }),
      b.client.prepare({ database, config: OTHER_PROFILE }, { workflowId: `${prefix}diff-b` }),
    ]);
    const { violations } = await reader.stop();
    expect(violations).toEqual([]);

    const won = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.result as PrepareDatabaseResult] : []));
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const s of settled) {
      if (s.status === 'fulfilled') continue;
      // The loser's artifacts were removed by the winner's publication: it fails, naming that.
      expect(s.reason).toBeInstanceOf(WorkflowFailedError);
      const cause = (s.reason as WorkflowFailedError).cause;
      expect(`${cause?.message} ${(cause?.cause as Error | undefined)?.message}`).toMatch(/Another preparation of this database published|is missing/);
    }
    const current = await store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
    expect(won.map((r) => r.manifest.versions)).toContainEqual(current!.versions);
    expect(await missingParts({ store, vectors }, databaseId, current!.versions, [])).toEqual([]);
    expect(await vectors.count(current!.collections.profiles)).toBe(current!.counts.columns);
  }, 180_000);

  it('a version removed by another publication is refused at publish (PreparationSuperseded), and the published one stays', async () => {
    const database = spiderDatabasePath('pets_1');
    const first = startPreparationHarness({ store, vectors, config: NO_LLM });
    const second = startPreparationHarness({ store, vectors, config: OTHER_PROFILE });
    try {
      const publish = async (h: typeof first) => {
        const { inspection } = await h.index(database);
        await h.activities.findCandidatePairs({ databaseId: inspection.databaseId, versions: inspection.versions, config: h.config.exploration });
        return () =>
          h.activities.publishPreparation({
            databaseId: inspection.databaseId,
            label: inspection.label,
            database,
            dialect: inspection.dialect,
            fingerprint: inspection.fingerprint,
            versions: inspection.versions,
            counts: { tables: 0, columns: 0, rows: 0, valuesIndexed: 0, candidatePairs: 0, confirmedPairs: 0, notes: 0 },
            complete: true,
            noteIds: [],
            preparedAt: new Date().toISOString(),
          });
      };
      const publishFirst = await publish(first); // built, not yet published
      const publishSecond = await publish(second);
      const published = await publishSecond();
      await expect(publishFirst()).rejects.toMatchObject({ type: 'PreparationSuperseded', message: expect.stringMatching(/Prepare again/) });
      const databaseId = preparedDatabaseId(database);
      const current = await store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
      expect(current?.versions).toEqual(published.manifest.versions);
      expect(await missingParts({ store, vectors }, databaseId, current!.versions, [])).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  }, 180_000);
});
