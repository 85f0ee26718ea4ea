import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack } from '../../devkit/test-workers';

/**
 * Retries never outlive the question: a model that fails every call with a retryable error (500)
 * under a retry policy that would go on for minutes must end the question at its time budget,
 * because each model step is given the time the run has left as its schedule-to-close deadline.
 */
describe('the time budget bounds the retries of model steps', () => {
  it('a model failing every call ends the question at its time budget, not after the retry policy', async () => {
    const question = 'How many heads of the departments are older than 56?';
    const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[question, 'SELECT 1']])), faults: { rate: 1, kinds: ['500'], seed: 1 } });
    const stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
    try {
      const maxSeconds = 6;
      const started = Date.now();
      const { result } = await stack.client.ask({
        question,
        database: spiderDatabasePath('department_management'),
        preset: 'quick',
        // 100 attempts 1 s apart would take over a minute and a half.
        limits: { budget: { maxSeconds }, llmRetry: { maximumAttempts: 100, initialIntervalMs: 1_000, backoffCoefficient: 1 } },
      });
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeLessThan(maxSeconds + 10);
      expect(result.outcome).toBe('llm_error');
      const generation = result.trace.find((t) => t.step === 'generateSqlDirect')!;
      expect(generation.ok).toBe(false);
      // Attempts stopped at the deadline: a handful, not a hundred.
      const attempts = llm.requests.filter((r) => r.api === 'chat').length;
      expect(attempts).toBeGreaterThan(1);
      expect(attempts).toBeLessThanOrEqual(maxSeconds + 2);
    } finally {
      await stack.stop();
      await llm.close();
    }
  }, 120_000);
});
