import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { LlmError } from '../../activities/llm/errors';
import type { JsonSchema } from '../../activities/llm/json-schema';
import { LLM_CACHE_KIND } from '../../activities/llm/llm-cache';
import { loadLlmConfig, type LlmConfig } from '../../activities/llm/llm-config';
import type { ChatMessage } from '../../activities/llm/llm-provider';
import { createLlmService } from '../../activities/llm/llm-service';
import { countTokens } from '../../devkit/scripted-llm/protocol';
import { startScriptedLlm, type ScriptedLlm, type ScriptRule } from '../../devkit/scripted-llm/server';

const SQL_SCHEMA: JsonSchema = { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'], additionalProperties: false };
const REPAIR_MARK = 'does not match the required JSON format';

function ask(question: string): ChatMessage[] {
  return [
    { role: 'system', content: 'You write SQL. Answer with JSON {"sql": "..."}.' },
    { role: 'user', content: question },
  ];
}

const RULES: ScriptRule[] = [
  { name: 'generator', when: (p) => p.user.includes('singers'), reply: () => '```json\n{"sql": "SELECT count(*) FROM singer",}\n```' },
  // Answers badly first, and well once it is told what was wrong.
  {
    name: 'sloppy',
    when: (p) => p.user.includes('concerts'),
    reply: (p) => (p.all.includes(REPAIR_MARK) ? '{"sql": "SELECT * FROM concert"}' : '{"query": "SELECT * FROM concert"}'),
  },
  { name: 'stubborn', when: (p) => p.user.includes('stadiums'), reply: () => 'I would rather not say.' },
  { name: 'chat', when: () => true, reply: (p) => `echo: ${p.user}` },
];

describe('LLM service over the scripted LLM', () => {
  let llm: ScriptedLlm;
  let dir: string;
  let store: ArtifactStore;
  let config: LlmConfig;

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: RULES });
  });
  afterAll(() => llm.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'decodex-llm-'));
    store = openSqliteArtifactStore(join(dir, 'artifacts.db'));
    config = loadLlmConfig({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted-1',
      DECODEX_LLM_API_KEY: 'test',
      DECODEX_LLM_JUDGER_MODEL: 'scripted-judge',
    });
    llm.requests.length = 0;
    llm.setRules(RULES);
    llm.setFaults(undefined);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a plain call and records it', async () => {
    let clock = 1000;
    const service = createLlmService({ config, store, now: () => (clock += 5) });
    const result = await service.call({ role: 'judger', messages: [{ role: 'user', content: 'hello there' }] });
    expect(result.text).toBe('echo: hello there');
    expect(result.value).toBeUndefined();
    expect(result.record).toEqual({
      role: 'judger',
      provider: 'openai',
      model: 'scripted-judge',
      promptTokens: 2,
      completionTokens: 3,
      latencyMs: 20, // four readings of the clock after the start: the model's answer is timed on its own and stamped
      cacheHit: false,
      attempts: 1,
    });
    expect(llm.requests[0].model).toBe('scripted-judge');
  });

  it('a retry of a call still being generated (its attempt timed out) joins that generation: the model is asked once', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.setRules([{ name: 'slow', when: () => true, reply: async () => (await held, '{"sql": "SELECT 1"}') }]);
    const service = createLlmService({ config, store });
    const request = { role: 'generator', messages: ask('How many singers are on file?'), schema: SQL_SCHEMA };
    // The first attempt: its worker keeps generating after Temporal gave up on it.
    const first = service.call(request);
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const retry = service.call(request);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const [a, b] = await Promise.all([first, retry]);
    expect(llm.requests).toHaveLength(1);
    expect(b.value).toEqual(a.value);
    expect(a.record).toMatchObject({ cacheHit: false, attempts: 1 });
    expect(b.record).toMatchObject({ cacheHit: true, attempts: 0, promptTokens: 0, completionTokens: 0 });
    // Stored by the generation itself: a later retry, on any worker of the store, is a cache hit.
    const later = await createLlmService({ config, store }).call(request);
    expect(later.record.cacheHit).toBe(true);
    expect(llm.requests).toHaveLength(1);
  });

  it('a retry on another worker while the first still generates waits for it under the store lock: the model is asked once', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.setRules([{ name: 'slow', when: () => true, reply: async () => (await held, '{"sql": "SELECT 2"}') }]);
    // Two workers: two services, each with its own handle on the shared store file (as two processes have).
    const otherStore = openSqliteArtifactStore(join(dir, 'artifacts.db'));
    try {
      const request = { role: 'generator', messages: ask('Which singers are from France?'), schema: SQL_SCHEMA };
      const first = createLlmService({ config, store }).call(request);
      while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
      const retry = createLlmService({ config, store: otherStore }).call(request);
      await new Promise((r) => setTimeout(r, 300));
      // The retry waits on the lock; it has not reached the model.
      expect(llm.requests).toHaveLength(1);
      release();
      const [a, b] = await Promise.all([first, retry]);
      expect(llm.requests).toHaveLength(1);
      expect(b.value).toEqual(a.value);
      expect(a.record).toMatchObject({ cacheHit: false, attempts: 1 });
      expect(b.record).toMatchObject({ cacheHit: true, promptTokens: 0, completionTokens: 0 });
    } finally {
      await otherStore.close();
    }
  });

  it('returns a structured answer, repaired and validated', async () => {
    const service = createLlmService({ config, store });
    const result = await service.call<{ sql: string }>({ role: 'generator', messages: ask('How many singers are on file?'), schema: SQL_SCHEMA });
    expect(result.value).toEqual({ sql: 'SELECT count(*) FROM singer' });
    expect(result.record.attempts).toBe(1);
    // The schema asks for an object, so the provider requests JSON mode.
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0].body).toMatchObject({ response_format: { type: 'json_object' }, temperature: 0, max_tokens: 4096 });
  });

  it('re-asks with the validation problems when the answer does not fit the schema', async () => {
    const service = createLlmService({ config, store });
    const result = await service.call({ role: 'generator', messages: ask('List all concerts'), schema: SQL_SCHEMA });
    expect(result.value).toEqual({ sql: 'SELECT * FROM concert' });
    expect(result.record.attempts).toBe(2);
    expect(llm.requests).toHaveLength(2);
    const reask = llm.requests[1].prompt!;
    expect(reask.all).toContain('{"query": "SELECT * FROM concert"}'); // the bad answer is quoted back
    expect(reask.user).toBe('List all concerts'); // the task stays the same
    expect(reask.all).toContain('- $: missing required property "sql"');
    expect(reask.all).toContain('- $: unexpected property "query"');
    // Usage of both requests is summed (the scripted server counts whitespace-separated words).
    expect(result.record.promptTokens).toBe(countTokens(llm.requests[0].prompt!.all) + countTokens(reask.all));
    expect(result.record.completionTokens).toBe(countTokens('{"query": "SELECT * FROM concert"}') + countTokens('{"sql": "SELECT * FROM concert"}'));
  });

  it('fails as malformed, non-retryable, when the answer stays bad', async () => {
    const service = createLlmService({ config, store });
    const err = await service.call({ role: 'generator', messages: ask('Which stadiums exist?'), schema: SQL_SCHEMA }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    const llmErr = err as LlmError;
    expect(llmErr.kind).toBe('malformed');
    expect(llmErr.retryable).toBe(false);
    expect(llmErr.message).toMatch(/"generator" model "scripted-1" answered outside the JSON schema 3 times .*not valid JSON.*DECODEX_LLM_GENERATOR_MODEL/);
    expect(llmErr.details).toMatchObject({ attempts: 3 });
    expect(llm.requests).toHaveLength(3);
    // Stored as what it is, a failure (see the test of reruns below), never as an answer.
    const stored = await Promise.all((await store.list(LLM_CACHE_KIND)).map((key) => store.get<{ failure?: unknown }>(LLM_CACHE_KIND, key)));
    expect(stored.map((entry) => entry?.failure)).toEqual([expect.objectContaining({ kind: 'malformed', attempts: 3 })]);
  });

  it('honours maxRepairAttempts', async () => {
    const service = createLlmService({ config, store });
    await expect(service.call({ role: 'generator', messages: ask('Which stadiums exist?'), schema: SQL_SCHEMA, maxRepairAttempts: 0 })).rejects.toMatchObject({
      kind: 'malformed',
    });
    expect(llm.requests).toHaveLength(1);
  });

  it('treats injected malformed answers like any bad answer', async () => {
    llm.setFaults({ rate: 1, kinds: ['malformed'] });
    const service = createLlmService({ config, store });
    await expect(service.call({ role: 'generator', messages: ask('How many singers are on file?'), schema: SQL_SCHEMA })).rejects.toMatchObject({
      kind: 'malformed',
    });
    expect(llm.requests.map((r) => r.fault)).toEqual(['malformed', 'malformed', 'malformed']);
  });

  it('serves a rerun from the cache: identical answer, no request, no tokens, also after reopening the store', async () => {
    let clock = 0;
    const now = () => (clock += 5); // every reading of the clock is 5 ms after the last
    const service = createLlmService({ config, store, now });
    const request = { role: 'generator', messages: ask('List all concerts'), schema: SQL_SCHEMA };
    const first = await service.call(request);
    expect(llm.requests).toHaveLength(2);

    const again = await service.call(request);
    expect(llm.requests).toHaveLength(2);
    expect(again.text).toBe(first.text);
    expect(again.value).toEqual(first.value);
    expect(again.record).toMatchObject({ cacheHit: true, promptTokens: 0, completionTokens: 0, attempts: 0 });
    // What the answer took when it was generated stays known, so a replayed run still says what its configuration sends.
    expect(first.record.promptTokens).toBeGreaterThan(0);
    expect(again.record.cachedPromptTokens).toBe(first.record.promptTokens);
    // And how long generating it took (one tick of the clock around the model's answer), within the first call's latency.
    expect(again.record.cachedLatencyMs).toBe(5);
    expect(first.record.latencyMs).toBeGreaterThan(5);
    expect(first.record.cachedLatencyMs).toBeUndefined();

    await store.close();
    store = openSqliteArtifactStore(join(dir, 'artifacts.db'));
    const afterReopen = await createLlmService({ config, store }).call(request);
    expect(afterReopen).toMatchObject({ text: first.text, record: { cacheHit: true, cachedLatencyMs: 5 } });
    expect(llm.requests).toHaveLength(2);
  });

  it('misses the cache when anything that decides the answer changes', async () => {
    const service = createLlmService({ config, store });
    await service.call({ role: 'generator', messages: ask('How many singers are on file?') });
    await service.call({ role: 'generator', messages: ask('How many singers are on file?'), schema: SQL_SCHEMA });
    await service.call({ role: 'judger', messages: ask('How many singers are on file?') }); // another model
    const warmer = loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted-1', DECODEX_LLM_TEMPERATURE: '0.5' });
    await createLlmService({ config: warmer, store }).call({ role: 'generator', messages: ask('How many singers are on file?') });
    expect(llm.requests).toHaveLength(4);
    // The role alone does not change the answer: same model and prompt hit the cache.
    const hit = await service.call({ role: 'decomposer', messages: ask('How many singers are on file?') });
    expect(hit.record.cacheHit).toBe(true);
  });

  it('stores an unusable answer like an answer: a rerun fails the same way as a cache hit, without asking the model', async () => {
    const service = createLlmService({ config, store });
    const request = { role: 'generator', messages: ask('Which stadiums exist?'), schema: SQL_SCHEMA, maxRepairAttempts: 0 };
    const first = (await service.call(request).catch((e: unknown) => e)) as LlmError;
    expect(first).toMatchObject({ kind: 'malformed' });
    expect(first.details.cacheHit).toBeUndefined();
    expect(first.details.promptTokens).toBeGreaterThan(0);
    llm.setRules([{ name: 'fixed', when: () => true, reply: () => '{"sql": "SELECT name FROM stadium"}' }]);
    const again = (await service.call(request).catch((e: unknown) => e)) as LlmError;
    expect(again).toBeInstanceOf(LlmError);
    expect(again.message).toBe(first.message);
    // Nothing spent now; what the answer cost when generated, as a hit's record says.
    expect(again.details).toMatchObject({
      cacheHit: true,
      promptTokens: 0,
      completionTokens: 0,
      cachedPromptTokens: first.details.promptTokens,
    });
    expect(llm.requests).toHaveLength(1);
    // Another prompt is asked: only the answer of this prompt at these settings was unusable.
    expect((await service.call({ ...request, messages: ask('Which stadiums are there?') })).value).toEqual({ sql: 'SELECT name FROM stadium' });
    expect(llm.requests).toHaveLength(2);
  });

  it('does not store a transient failure: a later call asks again', async () => {
    llm.setFaults({ rate: 1, kinds: ['500'] });
    const service = createLlmService({ config, store });
    const request = { role: 'generator', messages: ask('Which stadiums exist?'), schema: SQL_SCHEMA };
    await expect(service.call(request)).rejects.toMatchObject({ kind: 'server' });
    llm.setFaults(undefined);
    llm.setRules([{ name: 'fixed', when: () => true, reply: () => '{"sql": "SELECT name FROM stadium"}' }]);
    expect((await service.call(request)).value).toEqual({ sql: 'SELECT name FROM stadium' });
  });

  it('talks to Anthropic roles through the Anthropic SDK', async () => {
    const mixed = loadLlmConfig({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted-1',
      DECODEX_LLM_JUDGER_PROVIDER: 'anthropic',
      DECODEX_LLM_JUDGER_BASE_URL: llm.anthropicBaseUrl,
      DECODEX_LLM_JUDGER_MODEL: 'claude-scripted',
      ANTHROPIC_API_KEY: 'test',
    });
    const result = await createLlmService({ config: mixed, store }).call({
      role: 'judger',
      messages: ask('How many singers are on file?'),
      schema: SQL_SCHEMA,
    });
    expect(result.value).toEqual({ sql: 'SELECT count(*) FROM singer' });
    expect(result.record).toMatchObject({ provider: 'anthropic', model: 'claude-scripted', cacheHit: false });
    expect(llm.requests[0]).toMatchObject({ api: 'messages', model: 'claude-scripted' });
  });

  it('reports a missing configuration as a config error', async () => {
    const service = createLlmService({ config: loadLlmConfig({ DECODEX_LLM_MODEL: 'gpt-4o' }), store });
    await expect(service.call({ role: 'generator', messages: ask('x') })).rejects.toMatchObject({
      kind: 'config',
      message: expect.stringMatching(/has no API key/),
    });
  });

  it('reports a missing local model file as a config error, before loading anything', async () => {
    const service = createLlmService({ config: loadLlmConfig({ DECODEX_LLM_LOCAL_MODEL: '/nowhere/model.gguf' }), store });
    await expect(service.call({ role: 'generator', messages: ask('x') })).rejects.toMatchObject({
      kind: 'config',
      retryable: false,
      message: expect.stringMatching(/^the local model file \/nowhere\/model\.gguf does not exist.*npm run setup.*DECODEX_LLM_LOCAL_MODEL/),
    });
  });
});
