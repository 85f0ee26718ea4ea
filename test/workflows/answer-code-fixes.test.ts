import { spiderDatabasePath } from '../../devkit/datasets';
import { withScriptedPipeline } from '../support/scripted-pipeline-stack';

/**
 * The code fixes of correction: a candidate naming a column the database does not know is
 * rewritten by plain code before any model is asked, when the schema has exactly one column spelt
 * the same but for case and underscores (`correction.spellingFixes`), or when the column was named
 * through the wrong table and exactly one table of the query has it, or the one table of the schema
 * that has it is where a foreign key of the qualifier's table leads (`correction.qualifierFixes`).
 * On in hybrid, dextersql and quick; switched off, the reviser is told what the checks found.
 */
describe('the code fixes of correction', () => {
  it('rewrites a misspelt column by plain code in hybrid, and leaves it to the reviser when switched off', async () => {
    const question = 'Which release years appear among the songs of our singers, from the oldest singer down?';
    const gold = 'SELECT Song_release_year FROM singer ORDER BY Age DESC';
    const misspelt = 'SELECT SongReleaseYear FROM singer ORDER BY age DESC';
    await withScriptedPipeline(new Map([[question, gold]]), { pathSql: () => misspelt, revisedSql: () => misspelt }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      const { result } = await stack.client.ask({ question, database, preset: 'hybrid' });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe('SELECT Song_release_year FROM singer ORDER BY age DESC');
      const fixes = result.trace.filter((t) => t.step === 'codeFix');
      expect(fixes.length).toBeGreaterThan(0);
      expect(fixes[0].outcome).toMatch(/^SongReleaseYear → Song_release_year: /);
      // Fixed before any model was asked to revise it: no finding left, no revision.
      expect(result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);

      const paper = await stack.client.ask({ question, database, preset: 'dextersql', pipeline: { correction: { spellingFixes: false } } });
      expect(paper.result.trace.some((t) => t.step === 'codeFix')).toBe(false);
      expect(paper.result.outcome).toBe('execution_error'); // the scripted reviser keeps the misspelling
    });
  }, 120_000);

  it('requalifies a column named through the wrong table in hybrid; switched off, the reviser is told which table has it', async () => {
    const question = 'List every concert name beside the location of the stadium it was held in.';
    const gold = 'SELECT T1.concert_Name, T2.Location FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID';
    const wrongTable = 'SELECT T1.concert_Name, T1.Location FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID';
    await withScriptedPipeline(new Map([[question, gold]]), { pathSql: () => wrongTable, revisedSql: () => wrongTable }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      const { result } = await stack.client.ask({ question, database, preset: 'hybrid' });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe(gold);
      const fixes = result.trace.filter((t) => t.step === 'codeFix');
      expect(fixes.length).toBeGreaterThan(0);
      expect(fixes[0].outcome).toMatch(/^T1\.Location → T2\.Location: /);
      expect(result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);

      // Switched off, the same preset leaves the candidate to the reviser, and no code fix runs.
      const off = await stack.client.ask({ question, database, preset: 'hybrid', pipeline: { correction: { qualifierFixes: false } } });
      expect(off.result.trace.some((t) => t.step === 'codeFix')).toBe(false);

      const paper = await stack.client.ask({ question, database, preset: 'dextersql', pipeline: { correction: { qualifierFixes: false } } });
      expect(paper.result.trace.some((t) => t.step === 'codeFix')).toBe(false);
      const revisions = paper.result.trace.filter((t) => t.step === 'reviseSql');
      expect(revisions.length).toBeGreaterThan(0);
      expect(revisions[0].summary).toContain('column-of-other-table');
      expect(paper.result.outcome).toBe('execution_error'); // the scripted reviser keeps the wrong table
    });
  }, 180_000);

  it('joins the table a foreign key leads to when the column is only there, in quick', async () => {
    const question = 'Which concerts did singer 2 sing in? Give their names.';
    // concert_Name is only in concert, and singer_in_concert's concert_ID references it.
    const withoutJoin = "SELECT T1.concert_Name FROM singer_in_concert AS T1 WHERE T1.Singer_ID = '2'";
    const joined = "SELECT T2.concert_Name FROM singer_in_concert AS T1 JOIN concert AS T2 ON T1.concert_ID = T2.concert_ID WHERE T1.Singer_ID = '2'";
    await withScriptedPipeline(new Map([[question, joined]]), { pathSql: () => withoutJoin, revisedSql: () => withoutJoin }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      const on = await stack.client.ask({ question, database, preset: 'quick' });
      expect(on.result.outcome).toBe('answered');
      expect(on.result.sql).toBe(joined);
      const fixes = on.result.trace.filter((t) => t.step === 'codeFix');
      expect(fixes[0]?.outcome).toMatch(/^T1\.concert_Name → T2\.concert_Name, JOIN concert AS T2 ON T1\.concert_ID = T2\.concert_ID: /);
      expect(on.result.usage.llmCalls).toBe(1);

      const off = await stack.client.ask({ question, database, preset: 'quick', pipeline: { correction: { qualifierFixes: false } } });
      expect(off.result.trace.some((t) => t.step === 'codeFix')).toBe(false);
      expect(off.result.outcome).toBe('execution_error');
    });
  }, 120_000);

  it('runs the code fixes without the reviser in quick (no model call), and a preset can switch them off', async () => {
    const question = 'Show each concert name with the location of its stadium.';
    const gold = 'SELECT T1.concert_Name, T2.Location FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID';
    const wrongTable = 'SELECT T1.concert_Name, T1.Location FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID';
    await withScriptedPipeline(new Map([[question, gold]]), { pathSql: () => wrongTable, revisedSql: () => wrongTable }, async (stack) => {
      const database = spiderDatabasePath('concert_singer');
      const on = await stack.client.ask({ question, database, preset: 'quick' });
      expect(on.result.outcome).toBe('answered');
      expect(on.result.sql).toBe(gold);
      expect(on.result.trace.filter((t) => t.step === 'codeFix').length).toBeGreaterThan(0);
      expect(on.result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);
      expect(on.result.usage.llmCalls).toBe(1);

      const off = await stack.client.ask({ question, database, preset: 'quick', pipeline: { correction: { qualifierFixes: false } } });
      expect(off.result.trace.some((t) => t.step === 'codeFix')).toBe(false);
      expect(off.result.outcome).toBe('execution_error');
    });
  }, 120_000);
});
