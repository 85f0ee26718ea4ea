import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_STORE_FILE, EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { describeVectorStoreContract } from './vector-store.contract';

describeVectorStoreContract('embedded', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'decodex-vectors-'));
  return {
    open: async () => new EmbeddedVectorStore(directory),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

describe('EmbeddedVectorStore specifics', () => {
  let directory: string;
  const stores: EmbeddedVectorStore[] = [];
  const open = () => {
    const store = new EmbeddedVectorStore(directory);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    directory = join(mkdtempSync(join(tmpdir(), 'decodex-vectors-')), 'nested', 'dir');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(join(directory, '..', '..'), { recursive: true, force: true });
  });

  it('creates its directory and keeps everything in one SQLite file there', async () => {
    const store = open();
    await store.ensureCollection('values', 2);
    expect(existsSync(join(directory, EMBEDDED_STORE_FILE))).toBe(true);
  });

  it('gives tied points to the earlier-written one after a reload, as before it (few-shot prompts stay the same across runs)', async () => {
    const writer = open();
    await writer.ensureCollection('ties', 2);
    // Ids out of alphabetical order, so neither the id index nor a sort by id can pass for insertion order.
    await writer.upsert('ties', [
      { id: 'm', vector: [1, 0], payload: {} },
      { id: 'z', vector: [1, 0], payload: {} },
    ]);
    await writer.upsert('ties', [{ id: 'a', vector: [2, 0], payload: {} }]);
    const live = (await writer.search('ties', [1, 0], { k: 3 })).map((h) => h.id);
    expect(live).toEqual(['m', 'z', 'a']);
    expect((await open().search('ties', [1, 0], { k: 3 })).map((h) => h.id)).toEqual(live);
  });

  it('sees points another handle on the same directory wrote after it loaded the index', async () => {
    const reader = open();
    const writer = open();
    await writer.ensureCollection('values', 2);
    await writer.upsert('values', [{ id: 'a', vector: [1, 0], payload: {} }]);
    expect((await reader.search('values', [1, 0], { k: 5 })).map((h) => h.id)).toEqual(['a']);
    await writer.upsert('values', [{ id: 'b', vector: [1, 0.1], payload: {} }]);
    expect((await reader.search('values', [1, 0], { k: 5 })).map((h) => h.id)).toEqual(['a', 'b']);
    await writer.deleteCollection('values');
    await expect(reader.count('values')).rejects.toThrow(/does not exist/);
  });

  it('keeps a loaded collection that another handle did not touch, reloads one it did', async () => {
    const reader = open();
    const writer = open();
    await writer.ensureCollection('quiet', 2);
    await writer.ensureCollection('busy', 2);
    await writer.upsert('quiet', [{ id: 'q', vector: [1, 0], payload: {} }]);
    await writer.upsert('busy', [{ id: 'b1', vector: [1, 0], payload: {} }]);
    await reader.search('quiet', [1, 0], { k: 1 });
    await reader.search('busy', [1, 0], { k: 1 });
    // Record which collections had to be read back from the file (no index in memory).
    const reloadedKeys: number[] = [];
    const internals = reader as unknown as { loadIndex(state: { key: number; index?: unknown }): unknown };
    const loadIndex = internals.loadIndex.bind(reader);
    internals.loadIndex = (state) => {
      if (!state.index) reloadedKeys.push(state.key);
      return loadIndex(state);
    };
    await writer.upsert('busy', [{ id: 'b2', vector: [0, 1], payload: {} }]);
    expect((await reader.search('quiet', [1, 0], { k: 5 })).map((h) => h.id)).toEqual(['q']);
    expect((await reader.search('busy', [0, 1], { k: 5 })).map((h) => h.id)).toEqual(['b2', 'b1']);
    expect(reloadedKeys).toEqual([2]);
  });

  it('writes a batch whole or not at all when one point is invalid', async () => {
    const store = open();
    await store.ensureCollection('values', 2);
    await expect(
      store.upsert('values', [
        { id: 'ok', vector: [1, 0], payload: {} },
        { id: 'bad', vector: [1, Number.NaN], payload: {} },
      ]),
    ).rejects.toThrow(/non-finite/);
    expect(await store.count('values')).toBe(0);
  });

  it('rejects one id twice in a batch, bad payload values and bad collection names', async () => {
    const store = open();
    await store.ensureCollection('values', 2);
    const point = { id: 'x', vector: [1, 0], payload: {} };
    await expect(store.upsert('values', [point, point])).rejects.toThrow(/twice/);
    await expect(store.upsert('values', [{ id: 'y', vector: [1, 0], payload: { nested: {} as unknown as string } }])).rejects.toThrow(/payload key nested/);
    await expect(store.ensureCollection('../escape', 2)).rejects.toThrow(/invalid collection name/);
  });

  it('does not let a caller mutate stored payloads through search results', async () => {
    const store = open();
    await store.ensureCollection('values', 2);
    await store.upsert('values', [{ id: 'a', vector: [1, 0], payload: { v: 'original' } }]);
    const [hit] = await store.search('values', [1, 0], { k: 1 });
    hit.payload.v = 'changed';
    expect((await store.search('values', [1, 0], { k: 1 }))[0].payload).toEqual({ v: 'original' });
  });

  it('refuses use after close', async () => {
    const store = open();
    await store.close();
    await expect(store.listCollections()).rejects.toThrow(/closed/);
  });
});
