import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { describeArtifactStoreContract } from './artifact-store.contract';

describeArtifactStoreContract('SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decodex-artifacts-'));
  return {
    open: async () => openSqliteArtifactStore(join(dir, 'artifacts.sqlite')),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('SQLite artifact store specifics', () => {
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
});
