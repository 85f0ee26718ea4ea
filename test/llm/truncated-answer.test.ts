import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { JsonSchema } from '../../activities/llm/json-schema';
import { LLM_CACHE_KIND } from '../../activities/llm/llm-cache';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService } from '../../activities/llm/llm-service';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

const SQL_SCHEMA: JsonSchema = { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'], additionalProperties: false };
/** A model caught in a loop: its answer never closes before the token cap. */
const LOOPING = '{"sql": "SELECT name FROM singer WHERE ' + 'age > 1 AND '.repeat(40) + 'age > 1"}';

describe('an answer cut off at the token cap', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: [{ name: 'generator', when: () => true, reply: () => LOOPING }] });
  });
  afterAll(() => llm.close());

  it('is a truncated answer (not a schema error), asked once, with the tokens it spent, and failed again from the cache on a rerun', async () => {
    const store = openSqliteArtifactStore(join(mkdtempSync(join(tmpdir(), 'decodex-truncated-')), 'artifacts.sqlite'));
    const config = loadLlmConfig({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test',
      DECODEX_LLM_MAX_TOKENS: '30',
    });
    const service = createLlmService({ config, store });
    const messages = [{ role: 'user' as const, content: 'How many singers are older than one?' }];
    const failure = await service.call({ role: 'generator', messages, schema: SQL_SCHEMA }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ kind: 'truncated', retryable: false, details: { cutOff: 'length', attempts: 1, role: 'generator', completionTokens: 30 } });
    expect((failure as Error).message).toMatch(/reached its 30-token cap before its JSON answer was complete/);
    // No repair round: the same prompt would be cut off the same way.
    expect(llm.requests).toHaveLength(1);
    expect(await store.list(LLM_CACHE_KIND)).toHaveLength(1);
    // The same prompt at the same settings is cut off again: a rerun fails the same way without asking.
    const rerun = await service.call({ role: 'generator', messages, schema: SQL_SCHEMA }).catch((err: unknown) => err);
    expect(rerun).toMatchObject({
      kind: 'truncated',
      message: (failure as Error).message,
      details: { cacheHit: true, cachedPromptTokens: expect.any(Number) },
    });
    expect(llm.requests).toHaveLength(1);
    // A larger token cap is another key: the model is asked.
    const roomier = createLlmService({
      config: loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'test', DECODEX_LLM_MAX_TOKENS: '400' }),
      store,
    });
    await roomier.call({ role: 'generator', messages, schema: SQL_SCHEMA }).catch(() => undefined);
    expect(llm.requests).toHaveLength(2);
    await store.close();
  });
});
