import { randomBytes } from 'node:crypto';
import type { VectorPoint, VectorStore } from '../../activities/vectors/vector-store';

/**
 * The behaviour every VectorStore must have. An implementation's test file calls
 * `describeVectorStoreContract` with a harness factory; one harness is made per test.
 */
export interface VectorStoreHarness {
  /** Opens a store; a second call opens a new handle on the same data (to test persistence). */
  open(): Promise<VectorStore>;
  /** Removes whatever the test left behind (directories, remote collections). */
  dispose(): Promise<void>;
}

/** Unit-free 4-d points with cosines against QUERY that are easy to check by hand. */
const QUERY = [1, 0, 0, 0];
const POINTS: VectorPoint[] = [
  { id: 'same', vector: [3, 0, 0, 0], payload: { kind: 'city', rank: 1, big: true } },
  { id: 'close', vector: [2, 0.5, 0, 0], payload: { kind: 'city', rank: 2, big: false } },
  { id: 'diagonal', vector: new Float32Array([1, 1, 0, 0]), payload: { kind: 'county', rank: 3, big: true } },
  { id: 'orthogonal', vector: [0, 0, 5, 0], payload: { kind: 'county', rank: 4.5, big: false } },
  { id: 'opposite', vector: [-1, 0, 0, 0], payload: { kind: 'state', rank: 5, big: true } },
];
const EXPECTED = [
  { id: 'same', score: 1 },
  { id: 'close', score: 2 / Math.sqrt(4.25) },
  { id: 'diagonal', score: Math.SQRT1_2 },
  { id: 'orthogonal', score: 0 },
  { id: 'opposite', score: -1 },
];

export function describeVectorStoreContract(label: string, makeHarness: () => Promise<VectorStoreHarness>): void {
  describe(`VectorStore contract: ${label}`, () => {
    let harness: VectorStoreHarness;
    let store: VectorStore;
    let collection: string;
    const opened: VectorStore[] = [];

    async function open(): Promise<VectorStore> {
      const s = await harness.open();
      opened.push(s);
      return s;
    }

    async function seeded(): Promise<void> {
      await store.ensureCollection(collection, 4);
      await store.upsert(collection, POINTS);
    }

    beforeEach(async () => {
      harness = await makeHarness();
      store = await open();
      // Unique per test, so suites sharing one server cannot see each other's data.
      collection = `contract_${randomBytes(6).toString('hex')}`;
    });

    afterEach(async () => {
      const cleaner = await harness.open();
      await cleaner.deleteCollection(collection);
      await cleaner.close();
      for (const s of opened.splice(0)) await s.close();
      await harness.dispose();
    });

    it('creates an empty collection that is listed, counts 0 and searches to nothing', async () => {
      await store.ensureCollection(collection, 4);
      expect(await store.listCollections()).toContain(collection);
      expect(await store.count(collection)).toBe(0);
      expect(await store.search(collection, QUERY, { k: 5 })).toEqual([]);
    });

    it('returns the top k by cosine similarity, best first, with cosine scores', async () => {
      await seeded();
      const hits = await store.search(collection, QUERY, { k: 3 });
      expect(hits.map((h) => h.id)).toEqual(EXPECTED.slice(0, 3).map((e) => e.id));
      hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(EXPECTED[i].score, 5));
    });

    it('returns every point when k exceeds the count, ordered down to the opposite vector', async () => {
      await seeded();
      const hits = await store.search(collection, new Float32Array([7, 0, 0, 0]), { k: 50 });
      expect(hits.map((h) => h.id)).toEqual(EXPECTED.map((e) => e.id));
      hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(EXPECTED[i].score, 5));
    });

    it('returns payloads as stored, with their types', async () => {
      await seeded();
      const [hit] = await store.search(collection, QUERY, { k: 1 });
      expect(hit.payload).toEqual({ kind: 'city', rank: 1, big: true });
    });

    it('lists every point with its payload, ordered by id, after a replacement too; nothing for an empty collection', async () => {
      await store.ensureCollection(collection, 4);
      expect(await store.payloads(collection)).toEqual([]);
      await seeded();
      await store.upsert(collection, [{ id: 'close', vector: [0, 1, 0, 0], payload: { kind: 'moved' } }]);
      const listed = await store.payloads(collection);
      expect(listed.map((p) => p.id)).toEqual(POINTS.map((p) => p.id).sort());
      expect(listed.find((p) => p.id === 'close')!.payload).toEqual({ kind: 'moved' });
      expect(listed.find((p) => p.id === 'same')!.payload).toEqual({ kind: 'city', rank: 1, big: true });
      await expect(store.payloads('missing_collection')).rejects.toThrow();
    });

    it('filters on string, integer, float and boolean payload values, all keys at once', async () => {
      await seeded();
      const ids = async (filter: Record<string, string | number | boolean>, k = 10) => (await store.search(collection, QUERY, { k, filter })).map((h) => h.id);
      expect(await ids({ kind: 'county' })).toEqual(['diagonal', 'orthogonal']);
      expect(await ids({ rank: 2 })).toEqual(['close']);
      expect(await ids({ rank: 4.5 })).toEqual(['orthogonal']);
      expect(await ids({ big: true })).toEqual(['same', 'diagonal', 'opposite']);
      expect(await ids({ big: true, kind: 'county' })).toEqual(['diagonal']);
      expect(await ids({ big: true }, 1)).toEqual(['same']);
      expect(await ids({ kind: 'nowhere' })).toEqual([]);
      // Equality is strict: the string "1" is not the number 1.
      expect(await ids({ rank: '1' })).toEqual([]);
    });

    it('replaces the vector and payload of an id that is upserted again', async () => {
      await seeded();
      await store.upsert(collection, [{ id: 'opposite', vector: [1, 0, 0, 0.001], payload: { kind: 'moved' } }]);
      expect(await store.count(collection)).toBe(POINTS.length);
      const [best] = await store.search(collection, QUERY, { k: 1, filter: { kind: 'moved' } });
      expect(best.id).toBe('opposite');
      expect(best.score).toBeCloseTo(1, 5);
      expect(best.payload).toEqual({ kind: 'moved' });
      expect(await store.search(collection, QUERY, { k: 10, filter: { kind: 'state' } })).toEqual([]);
    });

    it('keeps collections, points and payloads across close and reopen', async () => {
      await seeded();
      const before = await store.search(collection, QUERY, { k: 5, filter: { big: true } });
      await store.close();
      const reopened = await open();
      expect(await reopened.listCollections()).toContain(collection);
      expect(await reopened.count(collection)).toBe(POINTS.length);
      expect(await reopened.search(collection, QUERY, { k: 5, filter: { big: true } })).toEqual(before);
    });

    it('accepts ensureCollection again with the same dimension and keeps the points', async () => {
      await seeded();
      await store.ensureCollection(collection, 4);
      expect(await store.count(collection)).toBe(POINTS.length);
    });

    it('rejects a different dimension for an existing collection, in vectors and in queries', async () => {
      await seeded();
      await expect(store.ensureCollection(collection, 8)).rejects.toThrow(/dimension/);
      await expect(store.upsert(collection, [{ id: 'short', vector: [1, 0, 0], payload: {} }])).rejects.toThrow(/dimension 3.*expects 4/);
      await expect(store.search(collection, [1, 0, 0, 0, 0], { k: 1 })).rejects.toThrow(/dimension 5.*expects 4/);
      expect(await store.count(collection)).toBe(POINTS.length);
    });

    it('rejects zero vectors, whose cosine is undefined', async () => {
      await store.ensureCollection(collection, 4);
      await expect(store.upsert(collection, [{ id: 'z', vector: [0, 0, 0, 0], payload: {} }])).rejects.toThrow(/zero/);
      await expect(store.search(collection, [0, 0, 0, 0], { k: 1 })).rejects.toThrow(/zero/);
    });

    it('refuses to write to or search a collection that does not exist', async () => {
      await expect(store.upsert(collection, POINTS)).rejects.toThrow(/does not exist/);
      await expect(store.search(collection, QUERY, { k: 1 })).rejects.toThrow(/does not exist/);
    });

    it('deletes a collection and its points; deleting a missing one is harmless', async () => {
      await seeded();
      await store.deleteCollection(collection);
      expect(await store.listCollections()).not.toContain(collection);
      await expect(store.count(collection)).rejects.toThrow();
      await store.deleteCollection(collection);
      await store.ensureCollection(collection, 2);
      expect(await store.count(collection)).toBe(0);
    });

    it('agrees with a naive cosine ranking on a few hundred random points', async () => {
      const dimension = 24;
      const random = seededRandom(7);
      const points: VectorPoint[] = Array.from({ length: 700 }, (_, i) => ({
        id: `p${i}`,
        vector: Array.from({ length: dimension }, () => (random() < 0.3 ? random() * 2 - 1 : 0)).map((x, d) => (d === i % dimension ? x + 0.5 : x)),
        payload: { group: i % 5 === 0 ? 'rare' : 'common' },
      }));
      await store.ensureCollection(collection, dimension);
      await store.upsert(collection, points);
      for (let q = 0; q < 5; q++) {
        const query = Array.from({ length: dimension }, () => random() * 2 - 1);
        for (const filter of [undefined, { group: 'rare' }]) {
          const expected = naiveTopK(points, query, 10, filter?.group);
          const hits = await store.search(collection, query, { k: 10, filter });
          expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
          hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i].score, 4));
        }
      }
    });
  });
}

function naiveTopK(points: VectorPoint[], query: number[], k: number, group?: string): { id: string; score: number }[] {
  const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  return points
    .filter((p) => group === undefined || p.payload.group === group)
    .map((p) => ({
      id: p.id,
      score: Array.from(p.vector).reduce((s, x, i) => s + x * query[i], 0) / (norm(p.vector) * norm(query)),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

/** mulberry32: reproducible test data without a dependency. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
