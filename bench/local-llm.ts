/**
 * Speed of a question answered with the local LLM provider on this machine: real Spider dev
 * questions over their real database, each asked through the `answerQuestion` workflow on a
 * Temporal dev server with in-process workers (the path `decodex ask` takes: every step and
 * role of the default preset, database activities included), one after the other. The model is
 * loaded once beforehand and that time is reported apart. The cache starts empty, so every
 * call is generated. Uses decodex's configuration (DECODEX_LLM_LOCAL_* etc.).
 *
 *   npm run bench:local-llm [-- --database concert_singer] [--limit 3] [--preset quick]
 *
 * Prints `name: value` lines: seconds_per_question is the wall time of a whole question through
 * the workflow; tokens_per_second is completion tokens over that same time (prompt evaluation,
 * SQL execution and orchestration included, as a user waits for all of them);
 * prompt_tokens_per_second and generation_tokens_per_second are the model's own speeds (tokens it
 * evaluated before each answer's first token, and tokens it generated, over those times);
 * prompt_tokens_evaluated_fraction is prompt tokens evaluated over prompt tokens sent (below 1
 * when calls reuse the prefix the previous call evaluated).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchTemporal } from './bench-temporal';
import { loadLlmConfig, settingsForRole } from '../activities/llm/llm-config';
import { disposeLocalModels, loadLocalModel } from '../activities/llm/local/model-runtime';
import { installQuietRuntime, withClientSession } from '../cli/commands/client-session';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { resolveRuntimeConfig } from '../core/runtime-config';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { database: { type: 'string', default: 'concert_singer' }, limit: { type: 'string', default: '3' }, preset: { type: 'string' } },
  });
  const config = loadLlmConfig(process.env);
  const settings = settingsForRole(config, 'generator');
  if (settings.provider !== 'local')
    throw new Error(
      `the generator runs on the ${settings.provider} provider; this benchmark measures the local one (unset DECODEX_LLM_* or set DECODEX_LLM_PROVIDER=local)`,
    );

  const spider = path.join(datasetsRoot(process.env), 'spider');
  const dbId = values.database!;
  const database = path.join(spider, 'database', dbId, `${dbId}.sqlite`);
  const questions = (JSON.parse(readFileSync(path.join(spider, 'dev.json'), 'utf8')) as { db_id: string; question: string }[])
    .filter((q) => q.db_id === dbId)
    .slice(0, Number(values.limit))
    .map((q) => q.question);
  if (questions.length === 0) throw new Error(`no Spider dev question on ${dbId}`);

  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-local-llm-'));
  installQuietRuntime();
  const env = await startBenchTemporal();
  try {
    // Loaded once here; the in-process llm worker then finds it loaded (same reference and options).
    const loadStart = performance.now();
    const model = await loadLocalModel(settings.model, config.local);
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const runtime = {
      ...resolveRuntimeConfig({ ...process.env, DECODEX_HOME: home }, process.cwd()),
      temporalAddress: env.address,
      queuePrefix: 'bench-local-llm.',
    };
    const answers = await withClientSession(runtime, {}, async (client) => {
      const timed: {
        seconds: number;
        outcome: string;
        truncatedSteps: number;
        promptTokens: number;
        completionTokens: number;
        reusedPromptTokens?: number;
        llmCalls: number;
      }[] = [];
      for (const question of questions) {
        const started = performance.now();
        const { result } = await client.ask({ question, database, ...(values.preset ? { preset: values.preset } : {}) });
        // A step whose model answer was cut off (token cap, or stopped in a loop) fails as LlmTruncated.
        const truncatedSteps = result.trace.filter((e) => e.detail?.type === 'LlmTruncated').length;
        timed.push({ seconds: (performance.now() - started) / 1000, outcome: result.outcome, truncatedSteps, ...result.usage });
      }
      return timed;
    });

    const sum = (f: (a: (typeof answers)[number]) => number) => answers.reduce((n, a) => n + f(a), 0);
    const speed = model.speed.totals();
    const seconds = sum((a) => a.seconds);
    const lines: Record<string, string | number> = {
      model: model.name,
      threads: config.local.threads,
      context_size: config.local.contextSize,
      sequences: config.local.sequences,
      parallel_generations: config.local.parallel,
      database: dbId,
      preset: values.preset ?? 'default',
      questions: answers.length,
      questions_answered: answers.filter((a) => a.outcome === 'answered').length,
      outcomes: [...new Set(answers.map((a) => a.outcome))].map((o) => `${o}=${answers.filter((a) => a.outcome === o).length}`).join(' '),
      truncated_steps: sum((a) => a.truncatedSteps),
      model_load_seconds: loadSeconds.toFixed(2),
      seconds_per_question: (seconds / answers.length).toFixed(2),
      llm_calls_per_question: (sum((a) => a.llmCalls) / answers.length).toFixed(1),
      prompt_tokens: sum((a) => a.promptTokens),
      completion_tokens: sum((a) => a.completionTokens),
      tokens_per_second: (sum((a) => a.completionTokens) / seconds).toFixed(2),
      prompt_tokens_per_second: ((speed.promptTokens / speed.promptMs) * 1000).toFixed(1),
      generation_tokens_per_second: ((speed.generatedTokens / speed.generationMs) * 1000).toFixed(1),
      prompt_tokens_evaluated_fraction: (1 - sum((a) => a.reusedPromptTokens ?? 0) / sum((a) => a.promptTokens)).toFixed(3),
    };
    for (const [name, value] of Object.entries(lines)) console.log(`${name}: ${value}`);
  } finally {
    await disposeLocalModels();
    await env.teardown();
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:local-llm: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
