import { existsSync } from 'node:fs';
import path from 'node:path';
import { TINY_TEST_MODEL } from '../../activities/llm/local/local-llm-config';
import { runNodeScript } from '../../devkit/run-cli';

/**
 * Heartbeats of a model call are sent from the worker's event loop (activity-heartbeat.ts
 * keepAlive): a local generation that blocked it would starve them, and Temporal would take the
 * live call for dead and ask again. node-llama-cpp decodes on native threads: while two
 * generations run, the event loop must stay responsive (measured: under 50 ms of delay).
 */
test('two local generations at once leave the event loop free for heartbeats', async () => {
  expect(existsSync(TINY_TEST_MODEL)).toBe(true);
  const run = await runNodeScript(
    path.join(__dirname, 'event-loop-child.ts'),
    [],
    { DECODEX_LLM_LOCAL_MODEL: TINY_TEST_MODEL, DECODEX_LLM_MAX_TOKENS: '200', DECODEX_LLM_LOCAL_CONTEXT_SIZE: '1024' },
    { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 120_000 },
  );
  if (run.code !== 0) throw new Error(`the local model run failed (exit ${run.code}):\n${run.stderr}`);
  const { maxDelayMs, generationMs } = JSON.parse(run.stdout.trim()) as { maxDelayMs: number; generationMs: number };
  expect(generationMs).toBeGreaterThan(1_000); // the generations took long enough to measure anything
  // The heartbeat throttle is 3 s of a 10 s timeout: a second of delay would already be a warning sign.
  expect(maxDelayMs).toBeLessThan(1_000);
}, 150_000);
