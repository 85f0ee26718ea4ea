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

  it('is a truncated answer (not a schema error), asked once, with the tokens it spent, and never cached', async () => {
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
    expect(await store.list(LLM_CACHE_KIND)).toEqual([]);
    await store.close();
  });
});
