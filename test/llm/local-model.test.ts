import { existsSync } from 'node:fs';
import path from 'node:path';
import { validateJson } from '../../activities/llm/json-schema';
import { BUNDLED_LOCAL_MODEL } from '../../activities/llm/local/local-llm-config';
import { runNodeScript } from '../support/run-cli';
import type { ChildCall } from './local-model-child';
import { ROLES } from '../../core/prompts/prompt-catalog';

/** Runs local-model-child.ts in its own Node process (jest's sandbox cannot import ESM node-llama-cpp). */
function runChild(env: Record<string, string>) {
  return runNodeScript(path.join(__dirname, 'local-model-child.ts'), [], env, { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 280_000 });
}

describe('the local provider with the real GGUF model', () => {
  it('answers every structured role with JSON valid against its schema, counts tokens, and caches', async () => {
    // Installed by `npm run setup` (part of the README's test command), never downloaded here.
    expect(existsSync(BUNDLED_LOCAL_MODEL)).toBe(true);

    const run = await runChild({
      // Short answers and a small context keep the run short on a 2-core machine.
      DECODEX_LLM_MAX_TOKENS: '600',
      DECODEX_LLM_LOCAL_CONTEXT_SIZE: '1024',
    });
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    const calls = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChildCall);
    expect(calls.map((c) => c.label).sort()).toEqual(['generator again', 'nested', ...ROLES].sort());

    for (const call of calls.filter((c) => !c.record.cacheHit)) {
      // Constrained decoding: the raw text is the JSON itself, right the first time, no repair needed.
      const value: unknown = JSON.parse(call.text);
      expect(validateJson(value, call.schema!)).toEqual([]);
      expect(call.record).toMatchObject({ provider: 'local', model: BUNDLED_LOCAL_MODEL, attempts: 1, cacheHit: false });
      expect(call.record.promptTokens).toBeGreaterThan(20);
      expect(call.record.completionTokens).toBeGreaterThan(3);
    }
    const generated = JSON.parse(calls.find((c) => c.label === 'generator')!.text) as { sql: string };
    expect(generated.sql.trim()).not.toBe('');

    const again = calls.find((c) => c.label === 'generator again')!;
    expect(again.record).toMatchObject({ cacheHit: true, promptTokens: 0, completionTokens: 0, attempts: 0 });
    expect(again.text).toBe(calls.find((c) => c.label === 'generator')!.text);
  }, 300_000);
});
