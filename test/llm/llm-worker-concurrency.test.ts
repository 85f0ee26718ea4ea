import { loadLlmConfig } from '../../activities/llm/llm-config';
import { llmWorkerConcurrency } from '../../workers/llm-concurrency';

describe('llmWorkerConcurrency', () => {
  const remote = { DECODEX_LLM_BASE_URL: 'http://vllm:8000/v1', DECODEX_LLM_MODEL: 'big' };

  it('takes DECODEX_LLM_CONCURRENCY (default 8) for remote models', () => {
    expect(llmWorkerConcurrency(loadLlmConfig(remote), remote)).toBe(8);
    expect(llmWorkerConcurrency(loadLlmConfig(remote), { ...remote, DECODEX_LLM_CONCURRENCY: '20' })).toBe(20);
  });

  it('never takes more tasks than the local model runs generations at once', () => {
    // 8 sequences keep prompts evaluated; 2 of them generate at once.
    expect(llmWorkerConcurrency(loadLlmConfig({}), {})).toBe(2);
    const env = { DECODEX_LLM_LOCAL_PARALLEL: '3', DECODEX_LLM_CONCURRENCY: '8' };
    expect(llmWorkerConcurrency(loadLlmConfig(env), env)).toBe(3);
    const fewer = { DECODEX_LLM_CONCURRENCY: '1' };
    expect(llmWorkerConcurrency(loadLlmConfig(fewer), fewer)).toBe(1);
  });

  it('rejects a concurrency that is not a positive integer', () => {
    expect(() => llmWorkerConcurrency(loadLlmConfig({}), { DECODEX_LLM_CONCURRENCY: 'many' })).toThrow(
      'DECODEX_LLM_CONCURRENCY must be a positive integer, got "many"',
    );
  });
});
