import mysql from 'mysql2/promise';
import { openTargetDatabase } from '../../activities/database/open-database';
import { PairStatistics } from '../../activities/exploration/pair-statistics';
import { testMysqlUrl } from '../../devkit/mariadb';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';
import { expectReproducibleRowSample } from './row-sample-check';

/**
 * What is MariaDB's own in the profiler's and the explorator's SQL (the server global-setup
 * starts): collations, exact comparison, row samples. What every server engine shares (the same
 * pairs and statistics as on SQLite, a content fingerprint from SQL) is in
 * server-engine-preparation.test.ts.
 */
const serverUrl = testMysqlUrl();

describe('preparation on MySQL/MariaDB', () => {
  let harness: PreparationHarness;
  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());

  it('compares exactly on a case-insensitive, pad-space collation (utf8mb4_general_ci), as on SQLite', async () => {
    // The usual MySQL default: 'Paris' = 'paris' = 'Paris ' by collation. Exact must stay exact.
    const conn = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
    try {
      await conn.query(
        'DROP DATABASE IF EXISTS prep_case_insensitive; CREATE DATABASE prep_case_insensitive CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci; USE prep_case_insensitive;' +
          'CREATE TABLE city (id INT PRIMARY KEY, name VARCHAR(20)); CREATE TABLE visit (id INT PRIMARY KEY, city_id INT, name VARCHAR(20));' +
          "INSERT INTO city VALUES (1, 'Paris'), (2, 'lyon'), (3, 'Nice');" +
          "INSERT INTO visit VALUES (1, 1, 'paris'), (2, 2, 'lyon'), (3, 3, 'Nice '), (4, 1, 'Paris');",
      );
    } finally {
      await conn.end();
    }
    const url = new URL(serverUrl);
    url.pathname = '/prep_case_insensitive';
    const db = await openTargetDatabase(url.toString());
    try {
      const stats = new PairStatistics(db, 30_000);
      const city = { table: 'city', column: 'name' };
      const visit = { table: 'visit', column: 'name' };
      // {Paris, lyon, Nice} vs {paris, lyon, Nice , Paris}: Paris and lyon in common.
      expect(await stats.overlap(city, visit, false, true)).toEqual({ distinctA: 3, distinctB: 4, intersection: 2, union: 5, jaccard: 0.4 });
      // Lower-cased: {paris, lyon, nice} vs {paris, lyon, nice }.
      expect(await stats.overlap(city, visit, true, true)).toMatchObject({ distinctA: 3, distinctB: 3, intersection: 2 });
      const path = [{ left: 'city', leftColumns: ['id'], right: 'visit', rightColumns: ['city_id'], leftIsReferenced: true }];
      const [join] = await stats.join(path, [{ from: city, to: visit, textual: true }]);
      // Joined rows: (Paris, paris) (lyon, lyon) (Nice, 'Nice ') (Paris, Paris).
      expect(join).toMatchObject({ joinedRows: 4, agreeingRows: 2, agreement: 0.5, agreementCaseInsensitive: 0.75 });
    } finally {
      await db.close();
    }
  });

  it('profiles a table above the scan bound through a reproducible random row sample, and samples all distinct values', async () => {
    const conn = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
    try {
      await conn.query(
        'DROP DATABASE IF EXISTS prep_row_sample; CREATE DATABASE prep_row_sample; USE prep_row_sample; CREATE TABLE item (id INT PRIMARY KEY, code VARCHAR(10))',
      );
      const rows = Array.from({ length: 5000 }, (_, i) => [i + 1, `c${String(i + 1).padStart(5, '0')}`]);
      await conn.query('INSERT INTO item VALUES ?', [rows]);
    } finally {
      await conn.end();
    }
    const url = new URL(serverUrl);
    url.pathname = '/prep_row_sample';
    // RAND(seed) repeats: profiled again, the same rows and the same profile.
    await expectReproducibleRowSample(harness, url.toString());
  });
});
