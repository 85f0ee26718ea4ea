import { spiderDatabasePath } from '../support/datasets';
import { createRunningExampleDatabase, RUNNING_EXAMPLE } from '../support/running-example-database';
import { loadSpiderDatabase } from '../support/spider-to-mysql';
import { startPreparationHarness, type PreparationHarness } from './preparation-harness';

/**
 * The profiler's and the explorator's SQL on MariaDB (the server global-setup starts): the same
 * pairs and the same statistics as on SQLite, and a content fingerprint from SQL.
 */
const serverUrl = process.env.DECODEX_TEST_MYSQL_URL;
const describeWithMysql = serverUrl ? describe : describe.skip;

describeWithMysql('preparation on MySQL/MariaDB', () => {
  let harness: PreparationHarness;
  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());

  it("measures the running example's pair as on SQLite, with a SQL content fingerprint", async () => {
    const loaded = await loadSpiderDatabase(createRunningExampleDatabase(harness.dir), serverUrl!, { database: 'prep_running_example' });
    const { inspection, evidence: e } = await harness.measure(loaded.url, 'Examination.Diagnosis~Patient.Diagnosis');
    expect(inspection.fingerprint).toMatch(/^mysql:[0-9a-f]{32}$/);
    expect(e.join!.pathText.toLowerCase()).toBe('patient.id = examination.id');
    expect(e.join!.coverage).toBeCloseTo(RUNNING_EXAMPLE.expected.coverage, 6);
    expect(e.join!.fanout).toBeCloseTo(RUNNING_EXAMPLE.expected.fanout, 6);
    expect(e.join!.agreement).toBeCloseTo(RUNNING_EXAMPLE.expected.agreement, 6);
    expect(e.overlap.jaccard).toBe(1);
  });

  it('gives the same statistics as SQLite on a Spider pair', async () => {
    const file = spiderDatabasePath('insurance_policies');
    const loaded = await loadSpiderDatabase(file, serverUrl!, { database: 'prep_insurance_policies' });
    const pairId = 'Claims.Date_Claim_Settled~Settlements.Date_Claim_Settled';
    const onMysql = (await harness.measure(loaded.url, pairId)).evidence;
    const onSqlite = (await harness.measure(file, pairId)).evidence;
    expect(onMysql.join).toMatchObject({ coverage: onSqlite.join!.coverage, fanout: onSqlite.join!.fanout, agreement: onSqlite.join!.agreement, joinedRows: onSqlite.join!.joinedRows });
    expect(onMysql.overlap).toEqual(onSqlite.overlap);
  });
});
