import mysql from 'mysql2/promise';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { testMysqlUrl } from '../../devkit/mariadb';
import { loadSpiderDatabase } from '../support/spider-to-mysql';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * The whole default pipeline over MariaDB (the server global-setup starts): the first question
 * prepares the database, retrieval links the schema, every path writes a candidate, correction
 * runs each one read-only, selection clusters them, and the database's content is unchanged.
 */
const serverUrl = testMysqlUrl();

async function checksum(url: string): Promise<string> {
  const connection = await mysql.createConnection(url);
  try {
    const [tables] = await connection.query<mysql.RowDataPacket[]>('SHOW TABLES');
    const names = tables.map((t) => String(Object.values(t)[0])).sort();
    const [sums] = await connection.query<mysql.RowDataPacket[]>(`CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(', ')}`);
    return JSON.stringify(sums);
  } finally {
    await connection.end();
  }
}

describe('answerQuestion (hybrid) over MariaDB', () => {
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
    const loaded = await loadSpiderDatabase(spiderDatabasePath('concert_singer'), serverUrl, { database: 'answer_concert_singer' });
    const before = await checksum(loaded.url);
    const q = questions.find((x) => /average, minimum, and maximum age of all singers from France/.test(x.question))!;
    const { result } = await stack.client.ask({ question: q.question, database: loaded.url });
    expect(result.outcome).toBe('answered');
    expect(result.sql).toBe(q.query);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0].map(Number)).toEqual([34.5, 25, 43]); // the French singers are 29, 41, 43 and 25
    expect(result.trace.find((t) => t.step === 'prepareDatabase')?.outcome).toMatch(/prepared/);
    // The test server's root can write: the run says so where an engineer looks (issue 12, point 8).
    expect(result.trace.find((t) => t.step === 'openQuestion')?.outcome).toMatch(
      /warning: the account root@\S+ of mysql:\/\/root@.* can write \(ALL PRIVILEGES/,
    );
    expect(result.focusedSchema?.find((t) => t.table === 'singer')?.columns.map((c) => c.toLowerCase())).toEqual(expect.arrayContaining(['age', 'country']));
    expect(result.candidates.map((c) => [c.path, c.execution.ok])).toEqual([
      ['direct', true],
      ['dependency-tree', true],
      ['divide-and-conquer', true],
    ]);
    expect(result.selection?.method).toBe('confidence');

    // A statement that writes is refused below the model, on every path, and nothing changes.
    const { result: refused } = await stack.client.ask({ question: 'Please drop the singer table.', database: loaded.url });
    expect(refused.outcome).toBe('execution_error');
    expect(refused.error?.kind).toBe('read_only_violation');
    expect(await checksum(loaded.url)).toBe(before);
  });
});
