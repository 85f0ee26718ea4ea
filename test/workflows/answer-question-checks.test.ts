import { spiderDatabasePath } from '../../devkit/datasets';
import { withScriptedPipeline } from '../support/scripted-pipeline-stack';

/**
 * hybrid's question checks: a candidate that runs but joins a table for nothing the question names
 * is cut by plain code, or else sent to the reviser with the warning, and the join-free revision is
 * kept; with the checks off (the paper presets' setting) the same candidate is answered as written.
 * quick makes the cut too, with no call beyond its one.
 */
describe('the question checks of correction', () => {
  it('cuts, or else revises, a candidate that joins a table the question does not need, only when questionChecks is on', async () => {
    const question = 'Which singer is the oldest one? Give the name.';
    const gold = 'SELECT Name FROM singer ORDER BY Age DESC LIMIT 1';
    const joined = 'SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID ORDER BY T1.Age DESC LIMIT 1';
    await withScriptedPipeline(new Map([[question, gold]]), { pathSql: () => joined }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      // hybrid: plain code cuts the join (correction.joinFixes); no reviser is asked.
      const { result } = await stack.client.ask({ question, database, preset: 'hybrid' });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe('SELECT T1.Name FROM singer AS T1 ORDER BY T1.Age DESC LIMIT 1');
      expect(result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);
      expect(result.candidates[0].corrections.join(' ')).toMatch(/the join to singer_in_concert removed/);

      // Without the cut, the reviser is told about the join.
      const revised = await stack.client.ask({ question, database, preset: 'hybrid', pipeline: { correction: { joinFixes: false } } });
      expect(revised.result.sql).toBe(gold);
      const revisions = revised.result.trace.filter((t) => t.step === 'reviseSql');
      expect(revisions.length).toBeGreaterThan(0);
      expect(revisions.every((t) => /unused-join/.test(t.summary))).toBe(true);

      const off = await stack.client.ask({ question, database, preset: 'hybrid', pipeline: { correction: { questionChecks: false, joinFixes: false } } });
      expect(off.result.sql).toBe(joined);
      expect(off.result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);

      // quick cuts it too, with its one model call and no other.
      const quick = await stack.client.ask({ question, database, preset: 'quick' });
      expect(quick.result.sql).toBe('SELECT T1.Name FROM singer AS T1 ORDER BY T1.Age DESC LIMIT 1');
      expect(quick.result.usage.llmCalls).toBe(1);
      const asWritten = await stack.client.ask({ question, database, preset: 'quick', pipeline: { correction: { joinFixes: false } } });
      expect(asWritten.result.sql).toBe(joined);
      expect(asWritten.result.usage.llmCalls).toBe(1);
    });
  }, 120_000);
});
