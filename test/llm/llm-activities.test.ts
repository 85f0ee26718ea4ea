import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { LlmError, failureTypeOf, toActivityFailure } from '../../activities/llm/errors';
import { createLlmActivities, type CallLlmInput, type CallLlmOutput } from '../../activities/llm/llm-activities';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService } from '../../activities/llm/llm-service';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

describe('toActivityFailure', () => {
  it.each([
    ['rate_limited', 'LlmRateLimited', false],
    ['server', 'LlmServer', false],
    ['timeout', 'LlmTimeout', false],
    ['connection', 'LlmConnection', false],
    ['auth', 'LlmAuth', true],
    ['bad_request', 'LlmBadRequest', true],
    ['malformed', 'LlmMalformed', true],
    ['config', 'LlmConfig', true],
  ] as const)('maps %s to a %s ApplicationFailure (nonRetryable=%s)', (kind, type, nonRetryable) => {
    expect(failureTypeOf(kind)).toBe(type);
    const failure = toActivityFailure(new LlmError(kind, `it was ${kind}`, { status: 1 }));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ message: `it was ${kind}`, type, nonRetryable, details: [{ status: 1 }] });
  });

  it('passes other errors through', () => {
    const plain = new TypeError('bug');
    expect(toActivityFailure(plain)).toBe(plain);
    expect(toActivityFailure('text').message).toBe('text');
  });
});

describe('callLlm activity', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: [{ name: 'judger', when: () => true, reply: () => '{"route": "direct"}' }] });
  });
  afterAll(() => llm.close());

  function activities() {
    const config = loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
    return createLlmActivities({ service: createLlmService({ config, store: openSqliteArtifactStore(':memory:') }) });
  }
  const input = {
    role: 'judger',
    messages: [{ role: 'user' as const, content: 'Is this simple?' }],
    schema: { type: 'object' as const, required: ['route'], properties: { route: { type: 'string' as const, enum: ['direct', 'decompose'] } } },
  };

  it('answers inside an activity context', async () => {
    const env = new MockActivityEnvironment();
    const { callLlm } = activities();
    const output = await env.run<[CallLlmInput], CallLlmOutput, typeof callLlm>(callLlm, input);
    expect(output.value).toEqual({ route: 'direct' });
    expect(output.record).toMatchObject({ role: 'judger', model: 'scripted', cacheHit: false, attempts: 1 });
  });

  it('throws a retryable ApplicationFailure for a 429', async () => {
    llm.setFaults({ rate: 1, kinds: ['429'] });
    try {
      const err = await activities()
        .callLlm(input)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect(err).toMatchObject({ type: 'LlmRateLimited', nonRetryable: false });
    } finally {
      llm.setFaults(undefined);
    }
  });

  it('throws a non-retryable ApplicationFailure for an answer that stays malformed', async () => {
    llm.setRules([{ name: 'judger', when: () => true, reply: () => '{"route": "sideways"}' }]);
    const err = await new MockActivityEnvironment().run(activities().callLlm, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'LlmMalformed', nonRetryable: true });
    expect((err as Error).message).toContain('$.route: "sideways" is not one of "direct", "decompose"');
  });
});
