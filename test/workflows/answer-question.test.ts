import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { DecodexClient } from '../../cli/client';
import Database from 'better-sqlite3';
import { DATABASE, OUTCOME, ROUTE, TOKENS } from '../../core/search-attributes';
import { sqlValueKey, encodeSqlValue } from '../../core/sql-value';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/** Rows of the gold SQL read directly with better-sqlite3, as order-insensitive keys. */
function goldRows(dbPath: string, sql: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const stmt = db.prepare(sql).safeIntegers(true).raw(true);
    return (stmt.all() as unknown[][]).map((r) => r.map((v) => sqlValueKey(encodeSqlValue(v))).join('|')).sort();
  } finally {
    db.close();
  }
}

function rowKeys(rows: unknown[][]): string[] {
  return rows.map((r) => r.map((v) => sqlValueKey(v as never)).join('|')).sort();
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('answerQuestion on a real Temporal dev server', () => {
  const questions = spiderDev().filter((q) => q.db_id === 'concert_singer' || q.db_id === 'pets_1');
  const sqlByQuestion = new Map(questions.map((q) => [q.question, q.query]));
  const writer = 'Please delete all singers.';
  const broken = 'Show me the broken query.';
  sqlByQuestion.set(writer, 'DELETE FROM singer');
  sqlByQuestion.set(broken, 'SELECT nope FROM singer');
  const countSingers = 'How many singers are on file?';
  sqlByQuestion.set(countSingers, 'SELECT count(*) FROM singer');

  let llm: Awaited<ReturnType<typeof startScriptedLlm>>;
  let stack: TestStack;
  const llmEnv = () => ({
    DECODEX_LLM_BASE_URL: llm.baseUrl,
    DECODEX_LLM_MODEL: 'scripted-sql',
    DECODEX_LLM_API_KEY: 'test-key',
    DECODEX_LLM_TIMEOUT_MS: '1500',
  });

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: scriptedPipeline(sqlByQuestion) });
    stack = await startTestStack(llmEnv());
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('answers a Spider question with the rows of its SQL, findable by search attributes', async () => {
    const q = questions.find((x) => x.db_id === 'concert_singer' && /average/i.test(x.question))!;
    const db = spiderDatabasePath('concert_singer');
    const { result, handle } = await stack.client.ask({ question: q.question, database: db });

    expect(result.outcome).toBe('answered');
    expect(result.sql).toBe(q.query);
    expect(rowKeys(result.rows)).toEqual(goldRows(db, q.query));
    // The default preset (hybrid): retrieval + three preliminary SQLs, no judger, its paths that
    // can run (few-shot has no examples: skipped, and the trace says so), correction, selection.
    expect(result.pipeline).toEqual({ preset: 'hybrid', ablations: [], overrides: {}, label: 'hybrid' });
    expect(result.route).toBe('direct');
    expect(result.judgement).toBeUndefined();
    expect(result.candidates.map((c) => c.path)).toEqual(['direct', 'divide-and-conquer']);
    expect(result.candidates.every((c) => c.sql === q.query && c.execution.ok && c.cluster === 0 && c.confidence === 1)).toBe(true);
    expect(result.selection).toMatchObject({ method: 'confidence', confidence: 1 });
    expect(result.focusedSchema?.find((t) => t.table === 'singer')?.columns.map((c) => c.toLowerCase())).toEqual(expect.arrayContaining(['age']));
    expect(result.usage.byRole).toMatchObject({ linker: { calls: 3 }, generator: { calls: 2 } });
    expect(result.usage.byRole.judger).toBeUndefined();
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    const stages = [...new Set(result.trace.map((t) => t.stage))];
    expect(stages).toEqual(['open', 'linking', 'generation', 'correction', 'selection', 'answer']);
    expect(result.trace.find((t) => t.step === 'generateSqlFewShot')?.skipped).toMatch(/no few-shot examples/);
    // hybrid leaves the disambiguation notes out (README: they lowered EX with the local model).
    expect(result.trace.find((t) => t.step === 'selectRelevantNotes')).toBeUndefined();

    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(DATABASE)).toBe('concert_singer');
    expect(description.typedSearchAttributes.get(ROUTE)).toBe('direct');
    expect(description.typedSearchAttributes.get(OUTCOME)).toBe('answered');
    expect(description.typedSearchAttributes.get(TOKENS)).toBe(result.usage.promptTokens + result.usage.completionTokens);
    expect(await description.staticSummary()).toBe(q.question);
    expect(await stack.client.trace(handle.workflowId)).toEqual(result.trace);

    // Each activity carries a summary the Web UI shows in the event list.
    const history = await handle.fetchHistory();
    const summaries = (history.events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => Buffer.from(e.userMetadata?.summary?.data ?? new Uint8Array()).toString());
    expect(summaries.length).toBeGreaterThanOrEqual(10); // open, linking (retrieval, 3 drafts, focus), 2 paths, 2 diagnoses, ...
    for (const s of summaries) expect(s.length).toBeGreaterThan(5);

    // The recorded history replays deterministically against the current workflow code.
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! } }, history, handle.workflowId);
  });

  it('answers the dag query with null on a run that took the direct path, while it runs and after', async () => {
    const started = await stack.client.startQuestion({ question: countSingers, database: spiderDatabasePath('concert_singer'), preset: 'quick' });
    expect(await stack.client.dag(started.workflowId)).toBeNull();
    const result = await started.handle.result();
    expect(result.route).toBe('direct');
    expect(await stack.client.dag(started.workflowId)).toBeNull();
  });

  it('serves a rerun of the same prompt from the cache: no new model request, zero new cost', async () => {
    const q = questions.find((x) => x.db_id === 'pets_1')!;
    const db = spiderDatabasePath('pets_1');
    const first = await stack.client.ask({ question: q.question, database: db });
    const requestsBefore = llm.requests.length;
    const second = await stack.client.ask({ question: q.question, database: db });
    expect(first.result.usage.cacheHits).toBe(0);
    expect(second.result.usage.cacheHits).toBe(first.result.usage.llmCalls);
    expect(second.result.usage.promptTokens).toBe(0);
    expect(llm.requests.length).toBe(requestsBefore);
    expect(second.result.sql).toBe(first.result.sql);
    expect(second.result.rows).toEqual(first.result.rows);
  });

  it('refuses SQL that writes, and the database stays byte-identical', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-wf-'));
    const db = path.join(dir, 'concert_singer.sqlite');
    copyFileSync(spiderDatabasePath('concert_singer'), db);
    const before = sha256(db);
    const { result } = await stack.client.ask({ question: writer, database: db });
    expect(result.outcome).toBe('execution_error');
    expect(result.error?.kind).toBe('read_only_violation');
    expect(result.sql).toBe('DELETE FROM singer');
    expect(sha256(db)).toBe(before);
  });

  it('returns an execution error with the SQL when the SQL fails', async () => {
    const { result, handle } = await stack.client.ask({ question: broken, database: spiderDatabasePath('concert_singer') });
    expect(result.outcome).toBe('execution_error');
    expect(result.error?.kind).toBe('sql_error');
    expect(result.error?.message).toMatch(/nope/);
    // Unanswered is Failed in the Web UI's list, the outcome and cause its message; the client still got the whole result.
    expect((await handle.describe()).status.name).toBe('FAILED');
    const failure = await handle.result().catch((err: WorkflowFailedError) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toMatchObject({ type: 'Unanswered', message: expect.stringMatching(/^execution_error: .*nope/) });
    expect(await stack.client.answer(handle.workflowId)).toEqual(result);
  });

  it('ends with budget_exhausted, and says so, when the LLM call budget is zero', async () => {
    const before = llm.requests.length;
    const q = questions[0];
    const { result } = await stack.client.ask({ question: q.question, database: spiderDatabasePath(q.db_id), limits: { budget: { maxLlmCalls: 0 } } });
    expect(result.outcome).toBe('budget_exhausted');
    expect(result.error?.kind).toBe('call_budget');
    expect(llm.requests.length).toBe(before);
  });

  it('reports a database that cannot be opened without retrying forever', async () => {
    // A client that cannot see the workers' files (checkDatabaseFiles: false) leaves the refusal to the worker.
    const remote = await DecodexClient.connect({ address: stack.address, queuePrefix: stack.queuePrefix, checkDatabaseFiles: false });
    try {
      const { result } = await remote.ask({ question: countSingers, database: '/nonexistent/nowhere.sqlite' });
      expect(result.outcome).toBe('database_error');
      expect(result.error?.message).toMatch(/nowhere\.sqlite/);
    } finally {
      await remote.close();
    }
  });

  it('classifies a rejected API key as a non-retryable auth error, at once', async () => {
    const badKey = await startTestStack({ ...llmEnv(), DECODEX_LLM_API_KEY: 'bad-key' });
    try {
      const t0 = Date.now();
      const { result } = await badKey.client.ask({ question: questions[1].question, database: spiderDatabasePath(questions[1].db_id) });
      expect(result.outcome).toBe('llm_error');
      expect(result.error?.kind).toMatch(/auth/i);
      expect(result.error?.message).toMatch(/key/i);
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      await badKey.stop();
    }
  });

  it('speaks Anthropic through @anthropic-ai/sdk when so configured', async () => {
    const anthropic = await startTestStack({
      DECODEX_LLM_PROVIDER: 'anthropic',
      DECODEX_LLM_BASE_URL: llm.anthropicBaseUrl,
      DECODEX_LLM_MODEL: 'scripted-claude',
      DECODEX_LLM_API_KEY: 'test-key',
    });
    try {
      const q = questions.find((x) => x.db_id === 'pets_1' && /how many/i.test(x.question))!;
      const { result } = await anthropic.client.ask({ question: q.question, database: spiderDatabasePath('pets_1') });
      expect(result.outcome).toBe('answered');
      expect(rowKeys(result.rows)).toEqual(goldRows(spiderDatabasePath('pets_1'), q.query));
      expect(llm.requests.some((r) => r.path.includes('messages') && r.model === 'scripted-claude')).toBe(true);
    } finally {
      await anthropic.stop();
    }
  });
});
