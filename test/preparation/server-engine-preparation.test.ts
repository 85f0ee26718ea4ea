import { spiderDatabasePath } from '../../devkit/datasets';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';
import { createRunningExampleDatabase, RUNNING_EXAMPLE } from '../support/running-example-database';
import { SERVER_ENGINES } from '../support/server-engines';

/**
 * The explorator's SQL on each server engine (the servers global-setup starts): the same pairs
 * and statistics as on SQLite, and a content fingerprint from SQL. What differs by engine
 * (collations, types PostgreSQL will not compare, comments as documentation) is in
 * mysql-preparation.test.ts and postgres-preparation.test.ts.
 */
for (const engine of SERVER_ENGINES) {
  engine.describe(`preparation on ${engine.name}`, () => {
    let harness: PreparationHarness;
    beforeAll(() => {
      harness = startPreparationHarness();
    });
    afterAll(() => harness.close());
    const pairId = (a: string, b: string) => `${engine.identifier(a)}~${engine.identifier(b)}`;

    it("measures the running example's pair as on SQLite, with a SQL content fingerprint", async () => {
      const url = await engine.loadSpider(createRunningExampleDatabase(harness.dir), 'prep_running_example');
      const { inspection, evidence: e } = await harness.measure(url, pairId('Examination.Diagnosis', 'Patient.Diagnosis'));
      expect(inspection.fingerprint).toMatch(new RegExp(`^${engine.dialect}:[0-9a-f]{32}$`));
      expect(e.join!.pathText.toLowerCase()).toBe('patient.id = examination.id');
      expect(e.join!.coverage).toBeCloseTo(RUNNING_EXAMPLE.expected.coverage, 6);
      expect(e.join!.fanout).toBeCloseTo(RUNNING_EXAMPLE.expected.fanout, 6);
      expect(e.join!.agreement).toBeCloseTo(RUNNING_EXAMPLE.expected.agreement, 6);
      expect(e.overlap.jaccard).toBe(1);
    });

    it('gives the same statistics as SQLite on a Spider pair', async () => {
      const file = spiderDatabasePath('insurance_policies');
      const url = await engine.loadSpider(file, 'prep_insurance_policies');
      const onServer = (await harness.measure(url, pairId('Claims.Date_Claim_Settled', 'Settlements.Date_Claim_Settled'))).evidence;
      const onSqlite = (await harness.measure(file, 'Claims.Date_Claim_Settled~Settlements.Date_Claim_Settled')).evidence;
      expect(onServer.join).toMatchObject({
        coverage: onSqlite.join!.coverage,
        fanout: onSqlite.join!.fanout,
        agreement: onSqlite.join!.agreement,
        joinedRows: onSqlite.join!.joinedRows,
      });
      expect(onServer.overlap).toEqual(onSqlite.overlap);
    });
  });
}
