import { sqlValueKey, encodeSqlValue } from '../../core/sql-value';
import Database from 'better-sqlite3';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack } from '../../devkit/test-workers';

const CLASSIFIED = /^Llm(RateLimited|Server|Timeout|Connection|Malformed)/;

/**
 * A 20% fault rate (429 with Retry-After, 500, answers slower than the timeout, malformed JSON,
 * HTTP bodies cut off mid-stream, well-formed JSON of the wrong shape) must end every question
 * within its budgets, either correctly or with a classified error, never with a hang or a wrong
 * answer.
 */
describe('answerQuestion under injected LLM faults', () => {
  it('ends every question correctly or with a classified error', async () => {
    const questions = spiderDev()
      .filter((q) => q.db_id === 'concert_singer')
      .slice(0, 16);
    const llm = await startScriptedLlm({
      rules: scriptedPipeline(new Map(questions.map((q) => [q.question, q.query]))),
      faults: { rate: 0.2, kinds: ['429', '500', 'slow', 'malformed', 'truncated', 'schema-invalid'], seed: 7, slowMs: 2_500 },
    });
    const stack = await startTestStack({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted-sql',
      DECODEX_LLM_API_KEY: 'test-key',
      DECODEX_LLM_TIMEOUT_MS: '1000',
    });
    const db = spiderDatabasePath('concert_singer');
    const direct = new Database(db, { readonly: true });
    const keys = (rows: unknown[][]) => rows.map((r) => r.map((v) => sqlValueKey(v as never)).join('|')).sort();
    const budget = { maxSeconds: 90, maxLlmCalls: 50 };
    try {
      const results = await Promise.all(
        questions.map(async (q) => {
          const started = Date.now();
          const asked = await stack.client.ask({
            question: q.question,
            database: db,
            limits: { budget, llmRetry: { maximumAttempts: 4, initialIntervalMs: 100, backoffCoefficient: 2 }, llmAttemptTimeoutMs: 5_000 },
          });
          return { ...asked, seconds: (Date.now() - started) / 1000 };
        }),
      );
      let answered = 0;
      results.forEach(({ result, seconds }, i) => {
        // Within its budgets: the wall clock (plus the last step in flight) and the paid calls.
        expect(seconds).toBeLessThan(budget.maxSeconds + 10);
        expect(result.usage.llmCalls).toBeLessThanOrEqual(budget.maxLlmCalls);
        if (result.outcome === 'answered') {
          answered++;
          const gold = direct.prepare(questions[i].query).safeIntegers(true).raw(true).all() as unknown[][];
          expect(keys(result.rows)).toEqual(keys(gold.map((r) => r.map(encodeSqlValue))));
        } else {
          expect(result.outcome).toBe('llm_error');
          expect(result.error?.kind).toMatch(CLASSIFIED);
        }
      });
      const faults = new Set(llm.requests.map((r) => r.fault).filter(Boolean));
      expect([...faults].sort()).toEqual(['429', '500', 'malformed', 'schema-invalid', 'slow', 'truncated']);
      // With 4 attempts per call, losing a question needs 4 faults in a row (p ≈ 0.2^4).
      expect(answered).toBeGreaterThanOrEqual(questions.length - 1);
    } finally {
      direct.close();
      await stack.stop();
      await llm.close();
    }
  }, 120_000);
});
