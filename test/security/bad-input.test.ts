import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LlmError } from '../../activities/llm/errors';
import { assertPromptFits } from '../../activities/llm/local/context-fit';
import { TINY_TEST_MODEL } from '../../activities/llm/local/local-llm-config';
import type { SchemaInfo } from '../../core/database/schema-types';
import { renderSchemaDdl, renderSchemaOutline } from '../../core/schema-text';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { runNodeScript } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * Issue 12, point 6: bad input gets a clear, early answer. An empty database ends before any model
 * call; a question larger than the model's context ends as `context_overflow` naming the sizes (no
 * SQL runs); names that need quoting are quoted in the schema text the model reads.
 */
describe('bad input', () => {
  let llm: ScriptedLlm;
  let stack: TestStack;
  let dir: string;
  const QUESTION = 'How many items are there?';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-badinput-'));
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[QUESTION, 'SELECT COUNT(*) FROM item']])), contextTokens: 8192 });
    stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k', DECODEX_LLM_MAX_TOKENS: '512' });
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('a database with no tables ends at once with database_error, before any model call', async () => {
    const file = path.join(dir, 'empty.sqlite');
    const db = new Database(file);
    db.pragma('user_version = 7'); // a real SQLite file, with a header, and no table
    db.close();
    const before = llm.requests.length;
    const started = Date.now();
    const { result } = await stack.client.ask({ question: QUESTION, database: file }); // the default pipeline
    expect(result.outcome).toBe('database_error');
    expect(result.error).toMatchObject({ kind: 'EmptyDatabase' });
    expect(result.error!.message).toMatch(/empty has no tables/);
    expect(llm.requests.length).toBe(before);
    expect(result.usage.llmCalls).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a question larger than the model context ends as context_overflow, naming the sizes, and runs no SQL', async () => {
    const file = path.join(dir, 'items.sqlite');
    const db = new Database(file);
    db.exec("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'a'), (2, 'b');");
    db.close();
    const huge = `${QUESTION} ${'please consider this very long preamble '.repeat(2500)}`; // ~100 KB
    const { result } = await stack.client.ask({ question: huge, database: file, preset: 'quick' });
    expect(result.outcome).toBe('context_overflow');
    expect(result.error?.kind).toBe('LlmContextOverflow');
    expect(result.error?.message).toMatch(/maximum context length is 8192 tokens.*requested \d+ tokens/);
    expect(result.sql).toBeNull();
    expect(result.trace.some((t) => t.step === 'executeSql' || t.step === 'diagnoseSql')).toBe(false);
    // Not retried: the same prompt cannot fit on a second attempt.
    expect(llm.requests.filter((r) => r.status === 400)).toHaveLength(1);
  });

  it('the local model refuses a prompt that does not fit its context instead of silently cutting it', () => {
    expect(() => assertPromptFits({ model: 'gemma', promptTokens: 30_000, maxTokens: 512, contextTokens: 4096 })).toThrow(LlmError);
    expect(() => assertPromptFits({ model: 'gemma', promptTokens: 30_000, maxTokens: 512, contextTokens: 4096 })).toThrow(
      /prompt is 30000 tokens.*answer may take 512.*holds 4096 tokens.*DECODEX_LLM_LOCAL_CONTEXT_SIZE/,
    );
    expect(() => assertPromptFits({ model: 'gemma', promptTokens: 3000, maxTokens: 512, contextTokens: 4096 })).not.toThrow();
  });

  it('the real local model: a 20 KB prompt into a 512-token context is context_overflow, not a silently cut prompt', async () => {
    expect(existsSync(TINY_TEST_MODEL)).toBe(true); // installed by `npm run setup -- --test-services`
    const run = await runNodeScript(path.join(__dirname, 'local-context-child.ts'), [], {}, { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 120_000 });
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    const outcome = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(outcome).toMatchObject({ kind: 'context_overflow', retryable: false, details: { maxTokens: 64, contextTokens: 512 } });
    expect(outcome.details.promptTokens).toBeGreaterThan(2000);
  }, 150_000);

  it('names that are keywords, hold spaces or quotes, or are not ASCII are quoted in the schema the model reads', () => {
    const schema = (dialect: 'sqlite' | 'mysql'): SchemaInfo =>
      ({
        dialect,
        tables: [
          {
            name: 'order',
            columns: [
              { name: 'group', type: 'TEXT', nullable: true },
              { name: 'rank', type: 'INT', nullable: true },
              { name: 'unit price', type: 'REAL', nullable: true },
              { name: 'say "hi"', type: 'TEXT', nullable: true },
              { name: 'prénom', type: 'TEXT', nullable: true },
              { name: 'plain_name', type: 'TEXT', nullable: true },
            ],
            primaryKey: ['group'],
            foreignKeys: [],
          },
        ],
      }) as unknown as SchemaInfo;
    const sqlite = renderSchemaDdl(schema('sqlite'));
    expect(sqlite).toContain('CREATE TABLE "order" (');
    for (const quoted of ['"group" TEXT', '"rank" INT', '"unit price" REAL', '"say ""hi""" TEXT', '"prénom" TEXT', 'PRIMARY KEY ("group")'])
      expect(sqlite).toContain(quoted);
    expect(sqlite).toContain('  plain_name TEXT');
    const mysql = renderSchemaDdl(schema('mysql'));
    for (const quoted of ['CREATE TABLE `order`', '`group` TEXT', '`rank` INT', '`unit price` REAL', '`prénom` TEXT']) expect(mysql).toContain(quoted);
    expect(renderSchemaOutline(schema('sqlite'))).toMatch(/^"order"\("group", "rank", "unit price", "say ""hi""", "prénom", plain_name\)$/);
  });
});
