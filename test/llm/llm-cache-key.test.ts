import { llmCacheKey } from '../../activities/llm/llm-cache';
import type { LlmSettings } from '../../activities/llm/llm-config';

const messages = [{ role: 'user' as const, content: 'Count the rows of table t, please.' }];
const local = (model: string): Pick<LlmSettings, 'provider' | 'baseUrl' | 'model' | 'temperature' | 'maxTokens'> => ({
  provider: 'local',
  model,
  temperature: 0,
  maxTokens: 512,
});

describe('the LLM cache key', () => {
  it("names a local model by its file, wherever the checkout keeps it, so another clone's carried answers replay", () => {
    const here = llmCacheKey({ settings: local('/work/main/.tools/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'), messages });
    expect(llmCacheKey({ settings: local('/home/ci/decodex/.tools/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'), messages })).toBe(here);
    expect(llmCacheKey({ settings: local('C:\\models\\qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'), messages })).toBe(here);
    expect(llmCacheKey({ settings: local('hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'), messages })).toBe(here);
    // Another model file, another prompt, another setting: another key.
    expect(llmCacheKey({ settings: local('/work/main/.tools/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf'), messages })).not.toBe(here);
    expect(llmCacheKey({ settings: { ...local('/x/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'), maxTokens: 600 }, messages })).not.toBe(here);
    expect(
      llmCacheKey({
        settings: local('/x/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'),
        messages: [{ role: 'user', content: 'Count the rows of table u, please.' }],
      }),
    ).not.toBe(here);
  });

  it('names a remote model as its endpoint does: a slash in its name is part of the name', () => {
    const remote = (model: string) =>
      llmCacheKey({ settings: { provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model, temperature: 0, maxTokens: 512 }, messages });
    expect(remote('org-a/sql-model')).not.toBe(remote('org-b/sql-model'));
  });
});
