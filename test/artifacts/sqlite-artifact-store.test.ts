import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';

describe('SQLite artifact store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'decodex-artifacts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the file and its directories on demand, in WAL mode', async () => {
    const file = join(dir, 'nested', 'deeper', 'artifacts.db');
    const store = openSqliteArtifactStore(file);
    await store.put('profile', 'db1/t.c', { n: 1 });
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
  });

  it('puts, gets, replaces, deletes and tells what it has', async () => {
    const store = openSqliteArtifactStore(join(dir, 'a.db'));
    expect(await store.get('notes', 'x')).toBeUndefined();
    expect(await store.has('notes', 'x')).toBe(false);
    await store.put('notes', 'x', { text: 'first', list: [1, 2, null], nested: { ok: true } });
    expect(await store.get('notes', 'x')).toEqual({ text: 'first', list: [1, 2, null], nested: { ok: true } });
    await store.put('notes', 'x', 'second');
    expect(await store.get<string>('notes', 'x')).toBe('second');
    // Same key under another kind is another artifact.
    expect(await store.get('rules', 'x')).toBeUndefined();
    expect(await store.delete('notes', 'x')).toBe(true);
    expect(await store.delete('notes', 'x')).toBe(false);
    expect(await store.has('notes', 'x')).toBe(false);
    await store.close();
  });

  it('lists keys of a kind by prefix, treating % and _ literally', async () => {
    const store = openSqliteArtifactStore(join(dir, 'a.db'));
    for (const key of ['db1/a', 'db1/b', 'db2/a', 'db%/x', 'dbX/y']) await store.put('profile', key, key);
    await store.put('other', 'db1/c', 1);
    expect(await store.list('profile')).toEqual(['db%/x', 'db1/a', 'db1/b', 'db2/a', 'dbX/y']);
    expect(await store.list('profile', 'db1/')).toEqual(['db1/a', 'db1/b']);
    expect(await store.list('profile', 'db%')).toEqual(['db%/x']);
    expect(await store.list('profile', 'db_')).toEqual([]);
    await store.close();
  });

  it('keeps artifacts across a reopen', async () => {
    const file = join(dir, 'persist.db');
    const first = openSqliteArtifactStore(file);
    await first.put('llm-cache', 'k', { text: 'hello', usage: { promptTokens: 3, completionTokens: 1 } });
    await first.close();
    const second = openSqliteArtifactStore(file);
    expect(await second.get('llm-cache', 'k')).toEqual({ text: 'hello', usage: { promptTokens: 3, completionTokens: 1 } });
    expect(await second.list('llm-cache')).toEqual(['k']);
    await second.close();
  });

  it('refuses values that are not JSON', async () => {
    const store = openSqliteArtifactStore(join(dir, 'a.db'));
    await expect(store.put('notes', 'f', undefined)).rejects.toThrow(/not JSON-serialisable/);
    await store.close();
  });
});
