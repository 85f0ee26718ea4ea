import { spiderDatabasePath } from '../../devkit/datasets';
import { withScriptedPipeline } from '../support/scripted-pipeline-stack';

/**
 * hybrid's question checks: a candidate that runs but joins a table for nothing the question names
 * is sent to the reviser with the warning, and the join-free revision is kept; with the checks off
 * (the paper presets' setting) the same candidate is answered as written.
 */
describe('the question checks of correction', () => {
  it('revises a candidate that joins a table the question does not need, only when questionChecks is on', async () => {
    const question = 'Which singer is the oldest one? Give the name.';
    const gold = 'SELECT Name FROM singer ORDER BY Age DESC LIMIT 1';
    const joined = 'SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID ORDER BY T1.Age DESC LIMIT 1';
    await withScriptedPipeline(new Map([[question, gold]]), { pathSql: () => joined }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      const { result } = await stack.client.ask({ question, database, preset: 'hybrid' });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe(gold);
      const revisions = result.trace.filter((t) => t.step === 'reviseSql');
      expect(revisions.length).toBeGreaterThan(0);
      expect(revisions.every((t) => /unused-join/.test(t.summary))).toBe(true);

      const off = await stack.client.ask({ question, database, preset: 'hybrid', pipeline: { correction: { questionChecks: false } } });
      expect(off.result.sql).toBe(joined);
      expect(off.result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);
    });
  }, 120_000);
});
