import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';
import { SERVER_ENGINES } from '../support/server-engines';

/**
 * The whole default pipeline over each server engine (the servers global-setup starts): the
 * first question prepares the database, retrieval links the schema, every path writes a
 * candidate, correction runs each one read-only, selection clusters them, a write is refused
 * below the model, and the database's content is unchanged.
 */
for (const engine of SERVER_ENGINES) {
  engine.describe(`answerQuestion (hybrid) over ${engine.name}`, () => {
    let llm: ScriptedLlm;
    let stack: TestStack;
    const questions = spiderDev().filter((q) => q.db_id === 'concert_singer');

    beforeAll(async () => {
      llm = await startScriptedLlm({
        rules: scriptedPipeline(
          new Map([...questions.map((q) => [q.question, q.query] as [string, string]), ['Please drop the singer table.', 'DROP TABLE singer']]),
        ),
      });
      stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
    }, 120_000);
    afterAll(async () => {
      await stack?.stop();
      await llm?.close();
    });

    it('prepares on first use, links, generates, corrects and selects, and leaves the data as it was', async () => {
      const url = await engine.loadSpider(spiderDatabasePath('concert_singer'), 'answer_concert_singer');
      const before = await engine.checksum(url);
      // Found by its SQL, so no question text is quoted here: the French singers' average, minimum and maximum age.
      const q = questions.find((x) => /avg\(age\).*min\(age\).*max\(age\).*France/i.test(x.query))!;
      const { result } = await stack.client.ask({ question: q.question, database: url });
      expect(result.outcome).toBe('answered');
      expect(result.sql).toBe(q.query);
      expect(result.rows).toHaveLength(1);
      expect(result.rows[0].map(Number)).toEqual([34.5, 25, 43]); // the French singers are 29, 41, 43 and 25
      expect(result.trace.find((t) => t.step === 'prepareDatabase')?.outcome).toMatch(/prepared/);
      // The test server's superuser can write: the run says so where an engineer looks.
      expect(result.trace.find((t) => t.step === 'openQuestion')?.outcome).toMatch(engine.writerWarning);
      expect(result.focusedSchema?.find((t) => t.table.toLowerCase() === 'singer')?.columns.map((c) => c.toLowerCase())).toEqual(
        expect.arrayContaining(['age', 'country']),
      );
      expect(result.candidates.map((c) => [c.path, c.execution.ok])).toEqual([
        ['direct', true],
        ['divide-and-conquer', true],
      ]);
      expect(result.selection?.method).toBe('confidence');

      // A statement that writes is refused below the model, on every path, and nothing changes.
      const { result: refused } = await stack.client.ask({ question: 'Please drop the singer table.', database: url });
      expect(refused.outcome).toBe('execution_error');
      expect(refused.error?.kind).toBe('read_only_violation');
      expect(await engine.checksum(url)).toEqual(before);
    });
  });
}
