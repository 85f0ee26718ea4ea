import { openTargetDatabase } from '../../activities/database/open-database';
import type { TargetDatabase } from '../../activities/database/target-database';
import { PairStatistics } from '../../activities/exploration/pair-statistics';
import { ARTIFACT_KINDS, artifactKeys } from '../../activities/prepared/preparation-artifacts';
import type { TableProfile } from '../../core/profiling/column-profile';
import { spiderDatabasePath } from '../../devkit/datasets';
import { withPostgres } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';
import { expectReproducibleRowSample } from './row-sample-check';

/**
 * What is PostgreSQL's own in the profiler's and the explorator's SQL (the server global-setup
 * starts): types it will not compare, a reproducible row sample, and COMMENT ON as the
 * developer's documentation. What every server engine shares is in
 * server-engine-preparation.test.ts. The loader lower-cases names (see spider-to-postgres.ts), so
 * pairs are named in lower case.
 */
describeWithPostgres('preparation on PostgreSQL', (server) => {
  let harness: PreparationHarness;
  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());
  /** An empty database of that name (one an earlier run left is replaced), by its URL. */
  const freshDatabase = async (name: string) => {
    await withPostgres(server().url, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    return server().url.replace(/\/postgres$/, `/${name}`);
  };

  it('measures an integer column against a text column holding the same numbers, which PostgreSQL will not compare directly', async () => {
    // concert_singer: stadium.stadium_id is an integer, concert.stadium_id text ('1', '2', ...).
    const file = spiderDatabasePath('concert_singer');
    const loaded = await loadSpiderIntoPostgres(file, server().url, { database: 'prep_concert_singer' });
    const [pg, lite] = [await openTargetDatabase(loaded.url, { postgres: { onAccountWarning: () => {} } }), await openTargetDatabase(file)];
    try {
      const overlap = (db: TargetDatabase, table: (t: string) => string) =>
        new PairStatistics(db, 30_000).overlap(
          { table: table('concert'), column: 'stadium_id' },
          { table: table('stadium'), column: 'stadium_id' },
          false,
          false,
        );
      const onPostgres = await overlap(pg, (t) => t);
      expect(onPostgres).toEqual(await overlap(lite, (t) => t));
      expect(onPostgres.intersection).toBeGreaterThan(0);
    } finally {
      await Promise.all([pg.close(), lite.close()]);
    }
  });

  it('profiles and indexes columns of types PostgreSQL has no MIN for or cannot compare, as their text where it must', async () => {
    const database = await freshDatabase('prep_types');
    await withPostgres(database, (c) =>
      c.query(`CREATE TYPE mood AS ENUM ('sad', 'happy');
        CREATE TABLE thing (id int PRIMARY KEY, picture bytea, active boolean, ref uuid, doc json, tags jsonb, spot point, feeling mood, codes varchar(4)[], notes json[]);
        INSERT INTO thing VALUES
          (1, '\\x0102', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": 1}', '{"k": "x"}', '(1,2)', 'sad', '{ab,cd}', '{"{}"}'),
          (2, '\\x0102', false, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '{"a": 1}', '{"k": "y"}', '(1,2)', 'happy', '{ab}', '{"[]"}'),
          (3, NULL, true, NULL, '{"a": 2}', NULL, '(3,4)', 'happy', NULL, NULL);`),
    );
    const { inspection } = await harness.index(database);
    const key = artifactKeys.tableProfile(inspection.databaseId, inspection.versions, 'thing');
    const profile = (await harness.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, key))!;
    const column = (name: string) => profile.columns.find((c) => c.column === name)!;
    // Read as MySQL's and SQLite's booleans are: 0 and 1.
    expect(column('active')).toMatchObject({ distinctCount: 2, min: 0, max: 1 });
    for (const name of ['picture', 'ref', 'tags', 'feeling']) expect(column(name)).toMatchObject({ min: null, max: null });
    expect(column('picture')).toMatchObject({ nonNullCount: 2, distinctCount: 1 });
    expect(column('ref').distinctCount).toBe(2);
    expect(column('feeling')).toMatchObject({ distinctCount: 2, mostFrequent: [{ value: 'happy', count: 2 }] });
    // No equality in PostgreSQL: counted and grouped by their text.
    expect(column('doc')).toMatchObject({ distinctCount: 2, min: null, mostFrequent: [expect.objectContaining({ value: '{"a": 1}', count: 2 })] });
    expect(column('spot')).toMatchObject({ distinctCount: 2, mostFrequent: [expect.objectContaining({ value: '(1,2)', count: 2 })] });
    expect(column('notes')).toMatchObject({ nonNullCount: 2, distinctCount: 2 });
    expect(column('codes')).toMatchObject({ distinctCount: 2, min: '{ab}', max: '{ab,cd}' });
    await harness.explore(database); // candidate pairs over the same columns
  });

  it('profiles a table above the scan bound through a reproducible row sample, documented by its comments', async () => {
    const database = await freshDatabase('prep_row_sample');
    await withPostgres(database, (c) =>
      c.query(`CREATE TABLE item (id int PRIMARY KEY, code varchar(10));
        INSERT INTO item SELECT i, 'c' || lpad(i::text, 5, '0') FROM generate_series(1, 5000) AS i;
        COMMENT ON COLUMN item.code IS 'The catalogue code, c and five digits';`),
    );
    // REPEATABLE(seed): profiled again, the same rows and the same profile.
    const profile = await expectReproducibleRowSample(harness, database, (inspection) =>
      expect(inspection.documentationSource).toBe('comments in the database'),
    );
    expect(JSON.stringify(profile.columns.find((c) => c.column === 'code'))).toContain('The catalogue code, c and five digits');
  });
});
