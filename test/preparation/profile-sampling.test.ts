import path from 'node:path';
import Database from 'better-sqlite3';
import { ARTIFACT_KINDS, artifactKeys } from '../../activities/prepared/preparation-artifacts';
import { resolvePreparationConfig, resolvePreparationLimits } from '../../core/preparation/preparation-config';
import type { TableProfile } from '../../core/profiling/column-profile';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';

/**
 * Profiles as DexterSQL builds them (§3.1.1), on a real SQLite file: the sample is drawn at
 * random over all distinct values (not the alphabetically smallest of the first 1,000), and a
 * table larger than the scan bound is read through a random sample of its rows (not its first
 * rows).
 */
describe('profile sampling', () => {
  let harness: PreparationHarness;
  let file: string;
  const ROWS = 5000;

  beforeAll(() => {
    harness = startPreparationHarness();
    file = path.join(harness.dir, 'items.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT)');
    const insert = db.prepare('INSERT INTO item VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 1; i <= ROWS; i++) insert.run(i, `c${String(i).padStart(5, '0')}`);
    })();
    db.close();
  });
  afterAll(() => harness.close());

  const profileItems = async (rowScanLimit: number, on: PreparationHarness = harness): Promise<TableProfile> => {
    const base = resolvePreparationConfig();
    const config = { ...base, profile: { ...base.profile, rowScanLimit } };
    const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
    const { databaseId, versions } = await on.activities.inspectDatabase({ database: file, config, queryTimeoutMs });
    await on.activities.profileTables({ database: file, databaseId, versions, tables: ['item'], config: config.profile, queryTimeoutMs, columnsPerScan });
    return (await on.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, artifactKeys.tableProfile(databaseId, versions, 'item')))!;
  };

  it('samples a unique column over all its distinct values', async () => {
    const code = (await profileItems(1_000_000)).columns.find((c) => c.column === 'code')!;
    expect(code.sample).toHaveLength(10);
    expect(new Set(code.sample).size).toBe(10);
    // The first 1,000 values in frequency-then-value order are c00001..c01000.
    expect(code.sample.filter((v) => (v as string) > 'c01000').length).toBeGreaterThan(5);
  });

  it('reads a random sample of the rows of a table above the scan bound, the same one every time', async () => {
    const profile = await profileItems(500);
    expect(profile.rowCount).toBe(ROWS);
    expect(profile.scannedRows).toBe(500);
    const id = profile.columns.find((c) => c.column === 'id')!;
    // About 500 rows, spread over the whole table rather than its first 500.
    expect(Math.abs(id.rowCount - 500)).toBeLessThan(150);
    expect(id.min as number).toBeLessThan(100);
    expect(id.max as number).toBeGreaterThan(4900);
    // Fewer distinct values than the value scan bound: the sample comes from the top-k query.
    expect(new Set(id.sample).size).toBe(10);
    expect(id.sample.every((v) => typeof v === 'number' && v >= (id.min as number) && v <= (id.max as number))).toBe(true);
    // Profiled again from scratch (another artifact store): the same rows, the same profile.
    const other = startPreparationHarness();
    try {
      expect(await profileItems(500, other)).toEqual(profile);
    } finally {
      await other.close();
    }
  });
});
