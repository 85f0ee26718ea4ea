import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack } from '../../devkit/test-workers';

/**
 * hybrid's spelling fix: a candidate naming a column the database does not know, where the schema
 * has exactly one column spelt the same but for case and underscores, is rewritten by plain code
 * before any model is asked; the paper presets leave it to the reviser.
 */
describe('the spelling fix of correction', () => {
  it('rewrites a misspelt column by plain code in hybrid, and not in dextersql', async () => {
    const question = 'Which release years appear among the songs of our singers, from the oldest singer down?';
    const gold = 'SELECT Song_release_year FROM singer ORDER BY Age DESC';
    const misspelt = 'SELECT SongReleaseYear FROM singer ORDER BY age DESC';
    const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[question, gold]]), { pathSql: () => misspelt, revisedSql: () => misspelt }) });
    const stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
    try {
      const database = spiderDatabasePath('concert_singer');
      const { result } = await stack.client.ask({ question, database, preset: 'hybrid' });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe('SELECT Song_release_year FROM singer ORDER BY age DESC');
      const fixes = result.trace.filter((t) => t.step === 'spellingFix');
      expect(fixes.length).toBeGreaterThan(0);
      expect(fixes[0].outcome).toMatch(/^SongReleaseYear → Song_release_year: /);
      // Fixed before any model was asked to revise it: no finding left, no revision.
      expect(result.trace.filter((t) => t.step === 'reviseSql')).toEqual([]);

      const paper = await stack.client.ask({ question, database, preset: 'dextersql' });
      expect(paper.result.trace.some((t) => t.step === 'spellingFix')).toBe(false);
      expect(paper.result.outcome).toBe('execution_error'); // the scripted reviser keeps the misspelling
    } finally {
      await stack.stop();
      await llm.close();
    }
  }, 120_000);
});
