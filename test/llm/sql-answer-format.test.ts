import { askModel } from '../../activities/prompts/ask-model';
import { loadPrompt } from '../../activities/prompts/render-prompt';
import { FENCED_ANSWER, PLAIN_ANSWER, inSqlFormat, parseFencedSql, parsePlainSql, writesSql } from '../../activities/prompts/sql-answer-format';
import { loadLlmConfig, settingsForRole } from '../../activities/llm/llm-config';
import type { LlmService } from '../../activities/llm/llm-service';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { createLlmService } from '../../activities/llm/llm-service';
import type { ChatMessage, LlmProvider } from '../../activities/llm/llm-provider';
import { PROMPT_CATALOG, type PromptName } from '../../core/prompts/prompt-catalog';
import { answeringService } from '../support/answering-llm-service';

const SQL_TEMPLATES = (Object.keys(PROMPT_CATALOG) as PromptName[]).filter((name) => writesSql(loadPrompt(name).schema));

/** A model that answers with the given texts in turn and keeps what it was asked. */
const scriptedService = (answers: string[], format: 'json' | 'fenced' | 'json-reasoning-first') => answeringService(answers, { sqlFormat: () => format });

const VARS = { dialect: 'sqlite', schema: 'CREATE TABLE singer (name TEXT)', knowledge: '', evidence: 'none', hintRules: '', question: 'How many singers?' };

describe('the answer format of roles that write SQL', () => {
  it('covers every SQL-writing template, each of which states its answer in the one sentence the formats rewrite', () => {
    expect(SQL_TEMPLATES).toEqual(
      expect.arrayContaining([
        'generate-sql',
        'generate-sql-few-shot',
        'generate-sql-divide-and-conquer',
        'generate-sql-dependency-tree',
        'revise-sql',
        'generate-node-sql',
        'draft-preliminary-sql',
        'apply-rules',
      ]),
    );
    for (const name of SQL_TEMPLATES) {
      const template = loadPrompt(name);
      const fenced = inSqlFormat([{ role: 'system', content: template.system }], template.schema, 'fenced');
      expect('schema' in fenced).toBe(false);
      expect(fenced.messages[0].content).toMatch(/first your reasoning \(.+\) as plain text, then the .*query in one ```sql code block/);
      expect(fenced.messages[0].content).not.toMatch(/JSON/);
      const plain = inSqlFormat([{ role: 'system', content: template.system }], template.schema, 'plain');
      expect('schema' in plain).toBe(false);
      expect(plain.messages[0].content).toMatch(/Answer with only the .*query, as plain SQL ending with a semicolon, and nothing else\.$/);
      expect(plain.messages[0].content).not.toMatch(/JSON|reasoning/);
      // The format's sentence is the only word on how the query ends: a template that also says
      // "no semicolon" contradicts the plain format's "ending with a semicolon".
      expect(template.system.replace(/Answer with only a JSON object.*$/s, '')).not.toMatch(/semicolon/i);
    }
  });

  it('json keeps the prompt as it is; json-reasoning-first puts reasoning before sql in the schema', () => {
    const { system, schema } = loadPrompt('generate-sql');
    const messages = [{ role: 'system' as const, content: system }];
    expect(inSqlFormat(messages, schema, 'json')).toEqual({ messages, schema });
    const first = inSqlFormat(messages, schema, 'json-reasoning-first');
    expect(first.messages).toBe(messages);
    expect('schema' in first && Object.keys(first.schema.properties!)).toEqual(['reasoning', 'sql']);
  });

  it.each([
    ['The question counts rows.\n```sql\nSELECT count(*) FROM singer;\n```', 'SELECT count(*) FROM singer;', 'The question counts rows.'],
    ['Two tries.\n```sql\nSELECT 1\n```\nBetter:\n```\nSELECT 2\n```', 'SELECT 2', 'Two tries.\n```sql\nSELECT 1\n```\nBetter:'],
    ['SELECT name FROM singer', 'SELECT name FROM singer', ''],
    ['Cut off:\n```sql\nSELECT name FROM', 'SELECT name FROM', 'Cut off:'],
    // The instruction echoed in prose opens no block.
    [
      "We count flights.\n\nHere's the query in one ```sql code block:\n\n```sql\nSELECT count(*) FROM flight;\n```",
      'SELECT count(*) FROM flight;',
      "We count flights.\n\nHere's the query in one ```sql code block:",
    ],
  ])('parses %j', (text, sql, reasoning) => {
    expect(parseFencedSql(text)).toEqual({ sql, reasoning });
  });

  it.each([
    ['SELECT count(*) FROM singer;', 'SELECT count(*) FROM singer', ''],
    // Text after the statement's end is not part of it; a `;` inside a string is.
    ["SELECT name FROM singer WHERE name = 'a;b';\nThis counts the singers.", "SELECT name FROM singer WHERE name = 'a;b'", ''],
    ['Here it is:\nSELECT name\nFROM singer\n\nIt lists names.', 'SELECT name\nFROM singer', 'Here it is:'],
    ['```sql\nWITH t AS (SELECT 1) SELECT * FROM t;\n```', 'WITH t AS (SELECT 1) SELECT * FROM t', ''],
    ['(SELECT a FROM x) UNION (SELECT a FROM y)', '(SELECT a FROM x) UNION (SELECT a FROM y)', ''],
    // A statement that writes is still the answer (the read-only guard refuses it), not an unread one.
    ['DROP TABLE singer;', 'DROP TABLE singer', ''],
  ])('parses the plain answer %j', (text, sql, reasoning) => {
    expect(parsePlainSql(text)).toEqual({ sql, reasoning });
  });

  it('reads a cut-off answer only when its query ended before the cut', () => {
    expect(PLAIN_ANSWER.parse('SELECT name FROM singer; and then it went on and on', true)).toEqual({
      ok: true,
      value: { sql: 'SELECT name FROM singer', reasoning: '' },
    });
    expect(PLAIN_ANSWER.parse('SELECT name FROM singer WHERE age >', true)).toMatchObject({ ok: false, problems: [expect.stringMatching(/cut off/)] });
    expect(PLAIN_ANSWER.parse('SELECT name FROM singer WHERE age >', false)).toMatchObject({ ok: true });
    expect(FENCED_ANSWER.parse('Count.\n```sql\nSELECT count(*) FROM singer\n```\nMore words', true)).toMatchObject({ ok: true });
    expect(FENCED_ANSWER.parse('Count.\n```sql\nSELECT count(*) FROM', true)).toMatchObject({ ok: false });
  });

  it('finds no plain query in prose', () => {
    expect(parsePlainSql('I cannot answer: no table has prices.')).toBeNull();
  });

  it('finds no query in prose', () => {
    expect(parseFencedSql('I cannot answer this.')).toBeNull();
    expect(parseFencedSql('```sql\n```')).toBeNull();
  });

  /** The real LLM service over a provider that answers with the given texts in turn, its store in a temp dir. */
  function serviceAnswering(texts: string[]): { llm: LlmService; asked: ChatMessage[][] } {
    const asked: ChatMessage[][] = [];
    const provider = {
      async complete(request: { messages: ChatMessage[] }) {
        asked.push(request.messages);
        return { text: texts[asked.length - 1] ?? '', usage: { promptTokens: 10, completionTokens: 5 } };
      },
    };
    const store = openSqliteArtifactStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-fenced-')), 'a.db'));
    const config = loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DECODEX_LLM_MODEL: 'm', DECODEX_LLM_SQL_FORMAT: 'fenced' });
    return { llm: createLlmService({ config, store, providerFor: () => provider as unknown as LlmProvider }), asked };
  }

  it('fenced: the service asks without a schema, re-asks once when the answer has no query, and adds up both calls', async () => {
    const { llm, asked } = serviceAnswering(['I think we count singers.', 'Sorry.\n```sql\nSELECT count(*) FROM singer\n```']);
    const answer = await askModel(llm, 'generate-sql', VARS);
    expect(answer.value).toEqual({ sql: 'SELECT count(*) FROM singer', reasoning: 'Sorry.' });
    expect(asked).toHaveLength(2);
    expect(asked[1].at(-1)!.content).toMatch(/no query/);
    expect(answer.usage.promptTokens).toBe(20);
    // Only the readable answer is cached: the same question is answered from the cache.
    expect((await askModel(llm, 'generate-sql', VARS)).usage.cacheHit).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('fenced: twice without a query is a malformed answer', async () => {
    await expect(askModel(serviceAnswering(['no', 'still no']).llm, 'generate-sql', VARS)).rejects.toThrow(/outside the required text format 2 times/);
  });

  it('a role whose answer is no query keeps its JSON schema whatever the format', async () => {
    const llm = scriptedService(['{"keywords": ["singer"]}'], 'fenced');
    await askModel(llm, 'extract-keywords', { ...VARS, question: 'How many singers?' }).catch(() => undefined);
    expect(llm.asked[0].schema).toBeDefined();
  });

  it('is configured per role: DECODEX_LLM_<ROLE>_SQL_FORMAT, checked', () => {
    const config = loadLlmConfig({ DECODEX_LLM_GENERATOR_SQL_FORMAT: 'fenced' });
    expect(settingsForRole(config, 'generator').sqlFormat).toBe('fenced');
    expect(settingsForRole(config, 'reviser').sqlFormat).toBeUndefined();
    expect(() => loadLlmConfig({ DECODEX_LLM_SQL_FORMAT: 'yaml' })).toThrow(/must be one of json, json-reasoning-first, fenced, plain/);
  });
});
