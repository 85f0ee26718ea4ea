/**
 * Run by local-event-loop.test.ts in a child Node process (jest cannot import node-llama-cpp):
 * two generations of the real tiny GGUF through the production path (env config → LLM service →
 * local provider) at once, while the event loop's delay is sampled every 10 ms. Prints one JSON
 * line: the longest delay and how long the generations took.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService } from '../../activities/llm/llm-service';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';

async function main(): Promise<void> {
  const store = openSqliteArtifactStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-loop-')), 'artifacts.sqlite'));
  const service = createLlmService({ config: loadLlmConfig(process.env), store });
  const ask = (n: number) =>
    service.call({
      role: 'generator',
      messages: [{ role: 'user', content: `Write a SQL query that counts the rows of table t${n}. Answer with the SQL only.` }],
    });
  await ask(0); // loads the model: not what is measured
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = Date.now();
  await Promise.all([ask(1), ask(2)]);
  delay.disable();
  process.stdout.write(`${JSON.stringify({ maxDelayMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6, generationMs: Date.now() - started })}\n`);
  await disposeLocalModels();
  await store.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
