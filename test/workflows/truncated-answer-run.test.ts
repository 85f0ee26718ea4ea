import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { startTestStack } from '../../devkit/test-workers';

/**
 * A model stuck in a loop ends a question as a truncated answer, with the tokens it burnt in the
 * usage and the trace; asked again, the run ends the same way from the LLM cache, a cached call.
 */
test('a question whose SQL answer is cut off at the token cap ends as LlmTruncated, its tokens counted, and replays so', async () => {
  const looping = '{"sql": "SELECT count(*) FROM singer LIMIT ' + '1 0 '.repeat(60) + '", "reasoning": "x"}';
  const llm = await startScriptedLlm({ rules: [{ name: 'generator', when: () => true, reply: () => looping }] });
  const stack = await startTestStack({
    DECODEX_LLM_BASE_URL: llm.baseUrl,
    DECODEX_LLM_MODEL: 'scripted',
    DECODEX_LLM_API_KEY: 'test-key',
    DECODEX_LLM_MAX_TOKENS: '40',
  });
  try {
    const { result } = await stack.client.ask({ question: 'How many singers are on file?', database: spiderDatabasePath('concert_singer'), preset: 'quick' });
    expect(result.outcome).toBe('llm_error');
    expect(result.error?.kind).toBe('LlmTruncated');
    expect(result.error?.message).toMatch(/40-token cap/);
    const failed = result.trace.find((e) => !e.ok && e.detail?.type === 'LlmTruncated');
    expect(failed?.usage).toMatchObject({ calls: 1, cacheHits: 0 });
    expect(failed!.usage!.tokens).toBeGreaterThanOrEqual(40);
    expect(result.usage.completionTokens).toBe(40);
    expect(llm.requests).toHaveLength(1);

    const again = (await stack.client.ask({ question: 'How many singers are on file?', database: spiderDatabasePath('concert_singer'), preset: 'quick' }))
      .result;
    expect(again).toMatchObject({ outcome: 'llm_error', error: { kind: 'LlmTruncated', message: result.error!.message } });
    expect(again.usage).toMatchObject({ llmCalls: 1, cacheHits: 1, promptTokens: 0, completionTokens: 0 });
    expect(again.usage.cachedPromptTokens).toBe(result.usage.promptTokens);
    expect(llm.requests).toHaveLength(1);
  } finally {
    await stack.stop();
    await llm.close();
  }
}, 60_000);
