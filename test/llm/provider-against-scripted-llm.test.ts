import { LlmError, type LlmErrorKind } from '../../activities/llm/errors';
import type { LlmSettings } from '../../activities/llm/llm-config';
import type { CompletionRequest } from '../../activities/llm/llm-provider';
import { providerForSettings } from '../../activities/llm/provider-for-settings';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

/** The real openai / @anthropic-ai/sdk clients, over HTTP, against the scripted LLM. */

const REQUEST: CompletionRequest = {
  model: 'known-model',
  messages: [
    { role: 'system', content: 'You are the generator.' },
    { role: 'user', content: 'How many singers are on file?' },
  ],
  temperature: 0,
  maxTokens: 100,
};

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

describe.each(['openai', 'anthropic'] as const)('%s provider', (provider) => {
  let llm: ScriptedLlm;
  const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => ({
    provider,
    baseUrl: provider === 'openai' ? llm.baseUrl : llm.anthropicBaseUrl,
    apiKey: 'good-key',
    model: 'known-model',
    temperature: 0,
    maxTokens: 100,
    timeoutMs: 5000,
    ...overrides,
  });

  beforeAll(async () => {
    llm = await startScriptedLlm({
      models: ['known-model'],
      rules: [{ name: 'generator', when: (p) => p.user.includes('singers'), reply: () => 'SELECT count(*) FROM singer' }],
    });
  });
  afterAll(() => llm.close());
  beforeEach(() => {
    llm.requests.length = 0;
    llm.setFaults(undefined);
  });

  it('returns the text and token usage of a completion', async () => {
    const completion = await providerForSettings(settings()).complete(REQUEST);
    expect(completion).toEqual({ text: 'SELECT count(*) FROM singer', usage: { promptTokens: 10, completionTokens: 4 } });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ api: provider === 'openai' ? 'chat' : 'messages', model: 'known-model', roleGuess: 'generator', status: 200 });
    expect(llm.requests[0].prompt?.system).toBe('You are the generator.');
  });

  it.each([
    ['429', 'rate_limited'],
    ['500', 'server'],
  ] as const)('classifies an injected %s as %s, retryable', async (fault, kind: LlmErrorKind) => {
    llm.setFaults({ rate: 1, kinds: [fault] });
    const err = await failure(providerForSettings(settings()).complete(REQUEST));
    expect(err.kind).toBe(kind);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(settings().baseUrl);
    expect(llm.requests).toHaveLength(1); // maxRetries 0: retrying is Temporal's job
  });

  it('keeps the wait a 429 asks for (Retry-After) for the retry', async () => {
    llm.setFaults({ rate: 1, kinds: ['429'], retryAfterSeconds: 3 });
    const err = await failure(providerForSettings(settings()).complete(REQUEST));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterMs).toBe(3000);
    expect(err.message).toMatch(/after the 3000 ms the server asked for/);
  });

  it('reports an answer whose body breaks off mid-stream as a retryable connection error', async () => {
    llm.setFaults({ rate: 1, kinds: ['truncated'] });
    const err = await failure(providerForSettings(settings()).complete(REQUEST));
    expect(err.kind).toBe('connection');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(settings().baseUrl);
  });

  it('turns a slow answer into a retryable timeout', async () => {
    llm.setFaults({ rate: 1, kinds: ['slow'], slowMs: 5000 });
    const started = Date.now();
    const err = await failure(providerForSettings(settings({ timeoutMs: 200 })).complete(REQUEST));
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/within 200 ms; raise DECODEX_LLM_TIMEOUT_MS/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a rejected key as a non-retryable auth error that says what to fix', async () => {
    const err = await failure(providerForSettings(settings({ apiKey: 'bad-key' })).complete(REQUEST));
    expect(err.kind).toBe('auth');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(
      `the API key in DECODEX_LLM_API_KEY (or ${provider === 'openai' ? 'OPENAI' : 'ANTHROPIC'}_API_KEY) was rejected by ${settings().baseUrl} (HTTP 401)`,
    );
  });

  it('reports an unknown model as bad_request naming the model', async () => {
    const err = await failure(providerForSettings(settings()).complete({ ...REQUEST, model: 'gpt-nine' }));
    expect(err.kind).toBe('bad_request');
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/rejected the request for model "gpt-nine" \(HTTP 404\).*Check the model name/);
  });

  it('reports an unreachable endpoint as a retryable connection error', async () => {
    const closed = await startScriptedLlm();
    const url = provider === 'openai' ? closed.baseUrl : closed.anthropicBaseUrl;
    await closed.close();
    const err = await failure(providerForSettings(settings({ baseUrl: url })).complete(REQUEST));
    expect(err.kind).toBe('connection');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(`cannot reach ${url}`);
  });

  it('passes on the scripted server naming an unmatched prompt', async () => {
    const err = await failure(
      providerForSettings(settings()).complete({ ...REQUEST, messages: [{ role: 'user', content: 'Unscripted question\nsecond line' }] }),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('no rule matches the prompt whose user text starts "Unscripted question"');
  });
});
