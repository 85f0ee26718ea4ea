import { ARTIFACT_KINDS, artifactKeys } from '../../activities/prepared/preparation-artifacts';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { resolvePreparationConfig, resolvePreparationLimits } from '../../core/preparation/preparation-config';
import type { TableProfile } from '../../core/profiling/column-profile';
import type { PreparationHarness } from '../../devkit/preparation-harness';

/**
 * For a server engine's table `item` (ids 1..5000, a `code` column of 5000 distinct values):
 * profiled with a 500-row scan bound, it is read through a random sample spread over the whole
 * table, every distinct value sampled, and profiling again gives the same profile (the engine's
 * sample is reproducible). Returns the profile for the engine's own checks.
 */
export async function expectReproducibleRowSample(
  harness: PreparationHarness,
  database: string,
  checkInspection: (inspection: DatabaseInspection) => void = () => {},
): Promise<TableProfile> {
  const base = resolvePreparationConfig();
  const config = { ...base, profile: { ...base.profile, rowScanLimit: 500 } };
  const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
  const profileItems = async () => {
    const inspection = await harness.activities.inspectDatabase({ database, config, queryTimeoutMs });
    checkInspection(inspection);
    const { databaseId, versions } = inspection;
    await harness.activities.profileTables({ database, databaseId, versions, tables: ['item'], config: config.profile, queryTimeoutMs, columnsPerScan });
    const key = artifactKeys.tableProfile(databaseId, versions, 'item');
    const profile = (await harness.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, key))!;
    await harness.store.delete(ARTIFACT_KINDS.tableProfile, key); // so the next call profiles again
    return profile;
  };
  const profile = await profileItems();
  const id = profile.columns.find((c) => c.column === 'id')!;
  expect(profile.scannedRows).toBe(500);
  expect(Math.abs(id.rowCount - 500)).toBeLessThan(150);
  expect(id.min as number).toBeLessThan(100);
  expect(id.max as number).toBeGreaterThan(4900);
  const code = profile.columns.find((c) => c.column === 'code')!;
  expect(new Set(code.sample).size).toBe(10);
  expect(await profileItems()).toEqual(profile);
  return profile;
}
