import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { tableChecksums } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * The whole default pipeline over PostgreSQL (the server global-setup starts), as over MariaDB:
 * the first question prepares the database, every path writes a candidate, correction runs each
 * one read-only, selection clusters them, a write is refused below the model, and the database's
 * content is unchanged.
 */
describeWithPostgres('answerQuestion (hybrid) over PostgreSQL', (server) => {
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
    const loaded = await loadSpiderIntoPostgres(spiderDatabasePath('concert_singer'), server().url, { database: 'answer_concert_singer' });
    const before = await tableChecksums(loaded.url);
    // Found by its SQL, so no question text is quoted here: the French singers' average, minimum and maximum age.
    const q = questions.find((x) => /avg\(age\).*min\(age\).*max\(age\).*France/i.test(x.query))!;
    const { result } = await stack.client.ask({ question: q.question, database: loaded.url });
    expect(result.outcome).toBe('answered');
    expect(result.sql).toBe(q.query);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0].map(Number)).toEqual([34.5, 25, 43]);
    expect(result.trace.find((t) => t.step === 'prepareDatabase')?.outcome).toMatch(/prepared/);
    // The test server's superuser can write: the run says so where an engineer looks.
    expect(result.trace.find((t) => t.step === 'openQuestion')?.outcome).toMatch(
      /warning: the account postgres of postgres:\/\/postgres@.* can write \(SUPERUSER/,
    );
    expect(result.focusedSchema?.find((t) => t.table === 'singer')?.columns).toEqual(expect.arrayContaining(['age', 'country']));
    expect(result.candidates.map((c) => [c.path, c.execution.ok])).toEqual([
      ['direct', true],
      ['dependency-tree', true],
      ['divide-and-conquer', true],
    ]);

    const { result: refused } = await stack.client.ask({ question: 'Please drop the singer table.', database: loaded.url });
    expect(refused.outcome).toBe('execution_error');
    expect(refused.error?.kind).toBe('read_only_violation');
    expect(await tableChecksums(loaded.url)).toEqual(before);
  });
});
