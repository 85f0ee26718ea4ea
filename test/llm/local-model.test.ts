import { existsSync } from 'node:fs';
import path from 'node:path';
import { validateJson } from '../../activities/llm/json-schema';
import { TINY_TEST_MODEL } from '../../activities/llm/local/local-llm-config';
import { runNodeScript } from '../../devkit/run-cli';
import type { ChildCall } from './local-model-child';
import { ROLES } from '../../core/prompts/prompt-catalog';

/** Runs a child script in its own Node process (jest's sandbox cannot import ESM node-llama-cpp). */
function runChild(script: string, env: Record<string, string>) {
  return runNodeScript(
    path.join(__dirname, script),
    [],
    { DECODEX_LLM_LOCAL_MODEL: TINY_TEST_MODEL, ...env },
    { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 280_000 },
  );
}

function jsonLines<T>(stdout: string): T[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
}

// These tests run the tiny model and check the plumbing only: greedy decoding takes different
// paths on different CPUs, so what a tiny model answers is luck, not something to assert.

describe('the local provider with the real GGUF model', () => {
  it('asks every structured role: each answer is JSON valid against its schema or a classified truncation, tokens counted, cached', async () => {
    // Installed by `npm run setup -- --test-services` (part of the README's test command), never downloaded here.
    expect(existsSync(TINY_TEST_MODEL)).toBe(true);

    const run = await runChild('local-model-child.ts', {
      // Short answers and a small context keep the run short on a 2-core machine.
      DECODEX_LLM_MAX_TOKENS: '600',
      DECODEX_LLM_LOCAL_CONTEXT_SIZE: '1536',
      // Every role under its grammar here; the plain SQL format is asked once more, as 'plain'.
      DECODEX_LLM_SQL_FORMAT: 'json',
    });
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    const all = jsonLines<ChildCall>(run.stdout);
    expect(all.map((c) => c.label).sort()).toEqual(['again', 'nested', 'plain', ...ROLES].sort());
    // Plain SQL is free text: no schema, no grammar; it is read (one re-ask allowed) or classified.
    const plain = all.find((c) => c.label === 'plain')!;
    expect(plain.schema).toBeUndefined();
    if (plain.error) expect(['malformed', 'truncated']).toContain(plain.error.kind);
    else expect(plain.record).toMatchObject({ provider: 'local', cacheHit: false });
    const calls = all.filter((c) => c.label !== 'plain');

    const answered = calls.filter((c) => !c.error && !c.record!.cacheHit);
    for (const call of answered) {
      // Constrained decoding: the raw text is the JSON itself, right the first time, no repair needed.
      const value: unknown = JSON.parse(call.text!);
      expect(validateJson(value, call.schema!)).toEqual([]);
      expect(call.record).toMatchObject({ provider: 'local', model: TINY_TEST_MODEL, attempts: 1, cacheHit: false });
      expect(call.record!.promptTokens).toBeGreaterThan(20);
      expect(call.record!.completionTokens).toBeGreaterThan(3);
    }
    // A model that loops or runs out of tokens ends as a classified truncation with its tokens
    // counted (the workflow records them and takes the stage's fallback), never as a schema error.
    for (const call of calls.filter((c) => c.error)) {
      expect(call.error).toMatchObject({ kind: 'truncated', details: { role: expect.any(String) } });
      expect(call.error!.details.promptTokens).toBeGreaterThan(20);
      expect(call.error!.details.completionTokens).toBeGreaterThan(0);
    }
    // If constrained decoding broke, nothing would validate; a handful of loops is the tiny model's luck.
    expect(answered.length).toBeGreaterThan(calls.length / 2);

    // The first answered call, asked again, comes from the cache with no tokens spent.
    const again = calls.find((c) => c.label === 'again')!;
    expect(again.record).toMatchObject({ cacheHit: true, promptTokens: 0, completionTokens: 0, attempts: 0 });
    expect(again.text).toBe(calls.find((c) => c.label === again.repeats)!.text);
  }, 300_000);

  it('a second call whose prompt shares a prefix with the first evaluates only what differs, counted by the runtime', async () => {
    const run = await runChild('local-prefix-child.ts', {});
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    type Call = { label: string; usage: { promptTokens: number; reusedPromptTokens?: number }; evaluated: number };
    const [first, shared, different] = jsonLines<Call>(run.stdout);
    // The runtime's meter: the first call evaluates its whole prompt, the second only its last part.
    expect(first.evaluated).toBeGreaterThan(400);
    expect(shared.evaluated).toBeLessThan(first.evaluated / 5);
    expect(different.evaluated).toBeGreaterThan(400);
    // The usage says so: the tokens sent as billed, and apart the ones reused.
    expect(first.usage.reusedPromptTokens ?? 0).toBe(0);
    expect(shared.usage.promptTokens).toBeGreaterThan(400);
    expect(shared.usage.reusedPromptTokens).toBe(shared.usage.promptTokens - shared.evaluated);
    expect(different.usage.reusedPromptTokens ?? 0).toBeLessThan(20);
  }, 150_000);

  it('a call whose prompt starts like the one a lent sequence holds copies that prefix instead of evaluating it', async () => {
    const run = await runChild('local-prefix-copy-child.ts', {});
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    type Call = { label: string; usage: { promptTokens: number; reusedPromptTokens?: number }; evaluated: number; sharedWithHeld: number; heldIntact: boolean };
    const [copied, unrelated] = jsonLines<Call>(run.stdout);
    expect(copied.sharedWithHeld).toBeGreaterThan(400);
    // The free sequence held nothing of it: the shared part came from the lent one, only the rest was evaluated.
    expect(copied.usage.reusedPromptTokens).toBeGreaterThanOrEqual(copied.sharedWithHeld);
    expect(copied.evaluated).toBeLessThan(copied.usage.promptTokens - copied.sharedWithHeld + 10);
    expect(copied.usage.reusedPromptTokens).toBe(copied.usage.promptTokens - copied.evaluated);
    // A prompt that shares little with anything is evaluated whole, and nothing is copied for it.
    expect(unrelated.sharedWithHeld).toBeLessThan(20);
    expect(unrelated.evaluated).toBeGreaterThan(400);
    // The lent sequence, saved while in use, keeps its tokens.
    expect(copied.heldIntact && unrelated.heldIntact).toBe(true);
  }, 150_000);

  it('two generations decoding together share forward passes: each counts its batched share, one alone counts none', async () => {
    const run = await runChild('local-batch-child.ts', {});
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    type Answer = { label: string; usage: { completionTokens: number; batchedTokens?: number } };
    const answers = jsonLines<Answer>(run.stdout);
    expect(answers.map((a) => a.label)).toEqual(['together-0', 'together-1', 'alone']);
    const [a, b, alone] = answers;
    // Both copy 60 tokens' worth of lines and read prompts of one length, so they decode side by
    // side for most of their tokens: about half of each one's passes is the other's too.
    for (const together of [a, b]) {
      expect(together.usage.batchedTokens).toBeGreaterThan(together.usage.completionTokens / 5);
      expect(together.usage.batchedTokens!).toBeLessThanOrEqual(together.usage.completionTokens / 2 + 1);
    }
    expect(alone.usage.batchedTokens).toBeUndefined();
  }, 150_000);

  it('drafts tokens from the prompt (input lookup) or with a draft model and verifies them: the same greedy answer, fewer decode passes, counted', async () => {
    const run = await runChild('local-draft-child.ts', {});
    if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
    type Answer = { draft: string; text: string; usage: { completionTokens: number; draftedTokens?: number } };
    const [plain, ...drafted] = jsonLines<Answer>(run.stdout);
    expect(plain.usage.draftedTokens).toBeUndefined();
    expect(drafted.map((d) => d.draft)).toEqual(['input-lookup', 'draft-model']);
    for (const answer of drafted) {
      // A copying answer takes most of its tokens from the prompt (or from a model that reads it), each verified by the model's own pass.
      expect(answer.usage.draftedTokens).toBeGreaterThan(0);
      expect(answer.usage.draftedTokens!).toBeLessThanOrEqual(answer.usage.completionTokens);
      // Verified drafts change the speed, not the answer.
      expect(answer.text).toBe(plain.text);
    }
  }, 150_000);
});
