import { ArtifactLockTimeout, type ArtifactStore } from '../../activities/artifacts/artifact-store';

/**
 * The behaviour every ArtifactStore must have. An implementation's test file calls
 * `describeArtifactStoreContract` with a harness factory; one harness is made per test.
 * `open()` twice gives two handles on the same data, as two worker processes would have.
 */
export interface ArtifactStoreHarness {
  open(): Promise<ArtifactStore>;
  dispose(): Promise<void>;
}

/** A JSON value of about `mib` MiB that differs by `seed`, like a materialized DAG result. */
function largeValue(mib: number, seed: string) {
  const row = (i: number) => [i, `${seed}-value-${i}-${'x'.repeat(40)}`, i * 0.5, null];
  const rows = Array.from({ length: Math.ceil((mib * 1024 * 1024) / 72) }, (_, i) => row(i));
  return { seed, columns: ['id', 'name', 'score', 'note'], rows };
}

export function describeArtifactStoreContract(label: string, makeHarness: () => Promise<ArtifactStoreHarness>): void {
  describe(`ArtifactStore contract: ${label}`, () => {
    let harness: ArtifactStoreHarness;
    const opened: ArtifactStore[] = [];
    const open = async () => {
      const store = await harness.open();
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await harness.dispose();
    });

    it('puts, gets, replaces, deletes and tells what it has, per kind', async () => {
      const store = await open();
      expect(await store.get('notes', 'x')).toBeUndefined();
      expect(await store.has('notes', 'x')).toBe(false);
      const value = { text: 'first', list: [1, 2.5, null, -3], nested: { ok: true, empty: {} }, unicode: 'Straße 東京 🚀' };
      await store.put('notes', 'x', value);
      expect(await store.get('notes', 'x')).toEqual(value);
      expect(await store.has('notes', 'x')).toBe(true);
      await store.put('notes', 'x', 'second');
      expect(await store.get<string>('notes', 'x')).toBe('second');
      await store.put('notes', 'zero', 0);
      expect(await store.get('notes', 'zero')).toBe(0);
      expect(await store.get('rules', 'x')).toBeUndefined();
      expect(await store.delete('notes', 'x')).toBe(true);
      expect(await store.delete('notes', 'x')).toBe(false);
      expect(await store.has('notes', 'x')).toBe(false);
    });

    it('compares and sorts keys byte by byte: case-sensitive, % and _ literal, non-ASCII after ASCII', async () => {
      const store = await open();
      const keys = ['db1/a', 'db1/b', 'db1/B', 'db2/a', 'db%/x', 'dbX/y', 'db1/é', 'db1/東', 'db1/🚀', 'db1/\u{10FFFD}', 'DB1/a'];
      for (const key of keys) await store.put('profile', key, key);
      await store.put('other', 'db1/c', 1);
      expect(await store.list('profile')).toEqual([
        'DB1/a',
        'db%/x',
        'db1/B',
        'db1/a',
        'db1/b',
        'db1/é',
        'db1/東',
        'db1/🚀',
        'db1/\u{10FFFD}',
        'db2/a',
        'dbX/y',
      ]);
      // A listing reads a range of keys: the last characters there are, 4 bytes in UTF-8, are in it.
      expect(await store.list('profile', 'db1/')).toEqual(['db1/B', 'db1/a', 'db1/b', 'db1/é', 'db1/東', 'db1/🚀', 'db1/\u{10FFFD}']);
      expect(await store.list('profile', 'db%')).toEqual(['db%/x']);
      expect(await store.list('profile', 'db_')).toEqual([]);
      expect(await store.list('profile', 'db1/é')).toEqual(['db1/é']);
      expect(await store.get('profile', 'DB1/A')).toBeUndefined();
      expect(await store.get('profile', 'db1/B')).toBe('db1/B');
    });

    it('shares its data between handles, and keeps it after they close', async () => {
      const first = await open();
      const second = await open();
      await first.put('llm-cache', 'k', { text: 'hello', usage: { promptTokens: 3, completionTokens: 1 } });
      expect(await second.get('llm-cache', 'k')).toEqual({ text: 'hello', usage: { promptTokens: 3, completionTokens: 1 } });
      await first.close();
      await second.close();
      opened.splice(0);
      const third = await open();
      expect(await third.list('llm-cache')).toEqual(['k']);
    });

    it('refuses values that are not JSON', async () => {
      const store = await open();
      await expect(store.put('notes', 'f', undefined)).rejects.toThrow(/not JSON-serialisable/);
      expect(await store.has('notes', 'f')).toBe(false);
    });

    it('keeps values of several MB of any kind intact', async () => {
      const store = await open();
      const value = largeValue(6, 'dag');
      await store.put('dag-result', 'run-1/n3', value);
      const back = await store.get<typeof value>('dag-result', 'run-1/n3');
      expect(back?.rows.length).toBe(value.rows.length);
      expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    });

    it('never shows a reader part of a value while another handle rewrites it', async () => {
      const writer = await open();
      const reader = await open();
      const versions = ['a', 'b', 'c', 'd'].map((seed) => largeValue(2, seed));
      const fingerprints = new Map(versions.map((v) => [`${v.seed}:${v.rows.length}:${v.rows[v.rows.length - 1][1]}`, v.seed]));
      await writer.put('dag-result', 'shared', versions[0]);
      let writing = true;
      const writes = (async () => {
        for (const v of [...versions.slice(1), ...versions]) await writer.put('dag-result', 'shared', v);
        writing = false;
      })();
      const seen = new Set<string>();
      while (writing) {
        const got = await reader.get<(typeof versions)[number]>('dag-result', 'shared');
        const id = `${got!.seed}:${got!.rows.length}:${got!.rows[got!.rows.length - 1][1]}`;
        expect(fingerprints.get(id)).toBe(got!.seed); // a whole version, never a blend
        seen.add(got!.seed);
      }
      await writes;
      expect(seen.size).toBeGreaterThanOrEqual(1);
    });

    it('withLock: holders on two handles never overlap, a waiter times out, a failed holder releases it', async () => {
      const a = await open();
      const b = await open();
      const events: string[] = [];
      const hold = (store: ArtifactStore, who: string) =>
        store.withLock('publish:db1', 10_000, async () => {
          events.push(`${who}+`);
          await new Promise((r) => setTimeout(r, 150));
          events.push(`${who}-`);
          return who;
        });
      expect(await Promise.all([hold(a, 'a1'), hold(b, 'b1'), hold(a, 'a2'), hold(b, 'b2')])).toEqual(['a1', 'b1', 'a2', 'b2']);
      for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i].replace('+', '-'));

      // Another lock name is independent; the same name waits and then gives up.
      let release!: () => void;
      const held = a.withLock('publish:db1', 1000, () => new Promise<void>((r) => (release = r)));
      await new Promise((r) => setTimeout(r, 50));
      expect(await b.withLock('publish:db2', 1000, async () => 'other')).toBe('other');
      await expect(b.withLock('publish:db1', 200, async () => 'never')).rejects.toBeInstanceOf(ArtifactLockTimeout);
      release();
      await held;

      await expect(a.withLock('publish:db1', 1000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await b.withLock('publish:db1', 1000, async () => 'free again')).toBe('free again');
    });
  });
}
