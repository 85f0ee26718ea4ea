import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { historyText } from '../support/history-text';
import { testMysqlUrl } from '../../devkit/mariadb';
import { createReaderAccount } from '../../devkit/mysql-reader-account';
import { runCli, type CliRun } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';

/**
 * Issue 12, point 1: a MySQL password given to `decodex` never leaves the worker. A real MariaDB
 * account whose password holds raw `@` and `:` answers questions through the CLI; then the CLI's
 * plain and --json output and the whole Temporal history of every run (inputs, activity inputs and
 * summaries, results, traces, failures) are searched for the password and for its tail after `@`
 * (what a redaction that stops at the first `@` leaves behind).
 */
const PASSWORD = 'Tr0ub@dor&3:hunter@2';
const TAIL = 'dor&3:hunter';
const DATABASE = 'secret_shop';
const QUESTION = 'How many products are there?';
const SQL = 'SELECT COUNT(*) FROM product';

const server = new URL(testMysqlUrl());
const port = server.port || '3306';
const withPassword = (db: string) => `mysql://reader:${PASSWORD}@127.0.0.1:${port}/${db}`;

function expectNoSecret(text: string): void {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(TAIL);
  expect(text).not.toContain(encodeURIComponent(PASSWORD));
}

describe('no database password leaves the worker', () => {
  let llm: ScriptedLlm;
  const queuePrefix = `secret${process.pid}.`;
  const env = () => ({
    DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-secret-')),
    TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
    DECODEX_QUEUE_PREFIX: queuePrefix,
    DECODEX_LLM_BASE_URL: llm.baseUrl,
    DECODEX_LLM_MODEL: 'scripted',
    DECODEX_LLM_API_KEY: 'k',
  });
  const workflowIdOf = (run: CliRun) => /started (\S+)/.exec(run.stderr)?.[1] ?? '';

  beforeAll(async () => {
    const root = await mysql.createConnection(testMysqlUrl());
    await root.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await root.query(`CREATE DATABASE ${DATABASE}`);
    await root.query(`CREATE TABLE ${DATABASE}.product (id INT PRIMARY KEY, name VARCHAR(40))`);
    await root.query(`INSERT INTO ${DATABASE}.product VALUES (1, 'lamp'), (2, 'desk'), (3, 'chair')`);
    await root.end();
    await createReaderAccount(testMysqlUrl(), { user: 'reader', password: PASSWORD, database: DATABASE });
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[QUESTION, SQL]])) });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('ask --json and plain: answered with the password, which is nowhere in the output or the history', async () => {
    const json = await runCli(['ask', '--db', withPassword(DATABASE), '--preset', 'quick', '--json', QUESTION], env());
    expectNoSecret(json.stdout + json.stderr);
    const result = JSON.parse(json.stdout);
    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[3]]);
    expect(result.database).toBe(`mysql://reader@127.0.0.1:${port}/${DATABASE}`);

    const plain = await runCli(['ask', '--db', withPassword(DATABASE), '--preset', 'quick', QUESTION], env());
    expectNoSecret(plain.stdout + plain.stderr);
    expect(plain.stdout).toMatch(/outcome: answered/);

    const history = await historyText([result.workflowId, workflowIdOf(plain)]);
    expect(history).toContain(`mysql://reader@127.0.0.1:${port}/${DATABASE}`); // the reference is there...
    expect(history).toContain('diagnoseSql'); // the activity that ran the SQL
    expectNoSecret(history); // ...its password is not
  }, 120_000);

  it('a run that fails to open the database reports why, without the password', async () => {
    const run = await runCli(['ask', '--db', withPassword('no_such_db'), '--preset', 'quick', '--json', QUESTION], env());
    expectNoSecret(run.stdout + run.stderr);
    const result = JSON.parse(run.stdout);
    expect(result.outcome).toBe('database_error');
    expect(result.error.message).toMatch(/cannot open database mysql:\/\/reader@127\.0\.0\.1:\d+\/no_such_db/);
    expectNoSecret(await historyText([result.workflowId]));
  }, 120_000);

  it('a named connection configured on the worker answers, and prepare agrees with ask on the database', async () => {
    const named = { ...env(), DECODEX_DATABASE_SHOP: withPassword(DATABASE) };
    const asked = await runCli(['ask', '--db', 'shop', '--preset', 'quick', '--json', QUESTION], named);
    expectNoSecret(asked.stdout + asked.stderr);
    expect(JSON.parse(asked.stdout)).toMatchObject({ outcome: 'answered', database: 'shop', rows: [[3]] });

    const prepared = await runCli(['prepare', '--db', withPassword(DATABASE), '--no-llm', '--json'], env());
    expectNoSecret(prepared.stdout + prepared.stderr);
    const preparation = JSON.parse(prepared.stdout);
    expect(preparation.manifest.counts.tables).toBe(1);
    expectNoSecret(await historyText([JSON.parse(asked.stdout).workflowId, preparation.workflowId]));
  }, 180_000);

  it('--no-worker refuses a password it could not hand to the worker, before starting anything', async () => {
    const run = await runCli(['ask', '--no-worker', '--db', withPassword(DATABASE), QUESTION], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DECODEX_DATABASE_<NAME>/);
    expectNoSecret(run.stdout + run.stderr);
  });
});
