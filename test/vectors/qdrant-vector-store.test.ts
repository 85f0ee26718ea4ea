import { randomBytes } from 'node:crypto';
import { vectorStoreFromEnv } from '../../activities/indexing/index-backends';
import { toQdrantFilter } from '../../activities/vectors/qdrant-filter';
import { qdrantPointId } from '../../activities/vectors/qdrant-point-id';
import { QDRANT_ORIGINAL_ID_KEY, QdrantVectorStore } from '../../activities/vectors/qdrant-vector-store';
import { VectorStoreError, VectorStoreUnavailableError } from '../../activities/vectors/vector-store';
import { freePort } from '../../devkit/free-port';
import { describeWithQdrant } from '../support/qdrant-tests';
import { describeVectorStoreContract } from './vector-store.contract';

describeWithQdrant('QdrantVectorStore on a real Qdrant server', 'server', (server) => {
  // One namespace per file run, so other files' collections on the shared server are never touched.
  const namespace = `decodex_test_${randomBytes(4).toString('hex')}_`;

  // The production configuration (HNSW, not exact search), as vectorStoreFromEnv builds it.
  describeVectorStoreContract('qdrant', async () => ({
    open: async () => vectorStoreFromEnv('/nonexistent', { QDRANT_URL: server().url, DECODEX_QDRANT_PREFIX: namespace }),
    dispose: async () => undefined,
  }));

  describe('Qdrant specifics', () => {
    const opened: QdrantVectorStore[] = [];
    const open = (options: { namespace?: string; url?: string } = {}) => {
      const store = new QdrantVectorStore({ url: options.url ?? server().url, namespace: options.namespace ?? namespace, timeoutMs: 5_000 });
      opened.push(store);
      return store;
    };
    afterAll(async () => {
      const cleaner = open();
      for (const name of await cleaner.listCollections()) await cleaner.deleteCollection(name);
    });

    it('keeps namespaces apart on one server: each lists, counts and deletes only its own collections', async () => {
      const mine = open();
      const theirs = open({ namespace: `${namespace.slice(0, -1)}x_` });
      await mine.ensureCollection('shared_name', 2);
      await theirs.ensureCollection('shared_name', 3);
      await mine.upsert('shared_name', [{ id: 'a', vector: [1, 0], payload: {} }]);
      expect(await theirs.count('shared_name')).toBe(0);
      await theirs.deleteCollection('shared_name');
      expect(await theirs.listCollections()).toEqual([]);
      expect(await mine.listCollections()).toContain('shared_name');
      expect(await mine.count('shared_name')).toBe(1);
    });

    it('maps string ids to UUIDs on the server and back, keeping the original id in the payload', async () => {
      const store = open();
      await store.ensureCollection('ids', 2);
      await store.upsert('ids', [{ id: 'concert_singer.singer.Name#abc', vector: [0, 1], payload: { v: 'x' } }]);
      const [hit] = await store.search('ids', [0, 1], { k: 1 });
      expect(hit).toEqual({ id: 'concert_singer.singer.Name#abc', score: expect.closeTo(1, 5), payload: { v: 'x' } });
      await expect(store.upsert('ids', [{ id: 'b', vector: [1, 1], payload: { [QDRANT_ORIGINAL_ID_KEY]: 'x' } }])).rejects.toThrow(/reserved payload key/);
    });

    it('reports the server explanation of a request it refuses, as a misuse, not as unavailable', async () => {
      const writer = open();
      const other = open();
      await writer.ensureCollection('gone', 2);
      // Deleted behind the writer's back: it still knows the dimension, so the server is asked and says 404.
      await other.deleteCollection('gone');
      const error = await writer.upsert('gone', [{ id: 'a', vector: [1, 0], payload: {} }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VectorStoreError);
      expect(error).not.toBeInstanceOf(VectorStoreUnavailableError);
      expect((error as Error).message).toMatch(/^qdrant upsert into gone failed with HTTP 404: .*gone.* doesn't exist/);
    });

    it('says a server that does not answer is unreachable, with its URL and the cause, as a retryable error', async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      const store = open({ url });
      const error = await store.ensureCollection('anything', 2).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VectorStoreUnavailableError);
      expect((error as Error).name).toBe('VectorStoreUnavailableError');
      expect((error as Error).message).toBe(
        `Qdrant at ${url} is unreachable (ECONNREFUSED) during check collection anything; the step is retried and continues once Qdrant answers again`,
      );
    });
  });
});

describe('qdrantPointId', () => {
  it('maps a string id to the same RFC 4122 version-5 UUID every time, and different ids apart', () => {
    const id = qdrantPointId('concert_singer.singer.Name:Joe Sharp');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(qdrantPointId('concert_singer.singer.Name:Joe Sharp')).toBe(id);
    expect(qdrantPointId('concert_singer.singer.Name:Joe sharp')).not.toBe(id);
  });
});

describe('toQdrantFilter', () => {
  it('matches strings, integers and booleans exactly and pins floats with a closed range', () => {
    expect(toQdrantFilter({ db: 'geo', year: 2019, big: true, share: 0.5 })).toEqual({
      must: [
        { key: 'db', match: { value: 'geo' } },
        { key: 'year', match: { value: 2019 } },
        { key: 'big', match: { value: true } },
        { key: 'share', range: { gte: 0.5, lte: 0.5 } },
      ],
    });
  });
});
