/**
 * What a question costs decodex with the local model, configurations side by side on a fixed
 * 12-question sample of Spider dev (bench/speed-sample.ts), every model call a first run: the
 * figures the CPU pays for whatever the machine's day (prompt tokens the model read, decode passes,
 * generated tokens, model calls per question), the wall seconds of this machine, and EX to show the
 * answers stayed right. The run machinery is bench:accuracy's (bench/configuration-runs.ts).
 *
 *   npm run bench:speed                                       # quick and hybrid, 12 questions
 *   npm run bench:speed -- --presets hybrid --ablations 'hybrid@judging.enabled=true'
 *   npm run bench:speed -- --limit 2 --presets quick          # a smaller sample: the plumbing, not a figure
 *
 * A configuration is `preset[:ablation+ablation...][@section.key=value;...]`, as for bench:accuracy;
 * `--presets` and `--ablations` both take a comma-separated list, so a setting with and without
 * runs side by side in one run.
 *
 * Prints, per configuration, `name: value` lines: questions_<label>, ex_<label>,
 * evaluated_prompt_tokens_per_question_<label>, generated_tokens_per_question_<label>,
 * decode_passes_per_question_<label>, model_calls_per_question_<label>,
 * seconds_per_question_<label> and cached_call_fraction_<label>, then the calls, evaluated prompt tokens
 * and decode passes per role (<name>_<label>_<role>).
 *
 * No carry, no resume: the home (default .decodex/bench-speed) keeps only the offline knowledge,
 * built once as bench:accuracy builds it (databases prepared with the model, `--no-notes` to skip;
 * the few-shot index from `--few-shot`; the learned knowledge from `--knowledge`, default
 * bench/carry/knowledge.json.gz, as bench:accuracy loads it). Its LLM cache is emptied before each configuration, so no
 * configuration replays an answer of an earlier run or of the configuration before it, and each run
 * of the bench has benchmark ids of its own, so it asks every question again. A call repeated
 * within one question can still be answered from the cache: cached_call_fraction says how many were.
 *
 * Slow with the full presets (`hybrid` has taken 49-145 s a question on 2 cores, issue 34, so 10 to
 * 30 minutes for its 12): run it on a quiet machine, where seconds per question measure decodex
 * rather than the machine's other work. It prints the model's threads too (model_threads).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LLM_CACHE_KIND } from '../activities/llm/llm-cache';
import { loadLlmConfig, settingsForRole } from '../activities/llm/llm-config';
import { speedLines } from '../core/benchmark/accuracy-table';
import { parseConfigurations } from './accuracy-configurations';
import { benchmarkOf, homeKnowledge, runConfigurations, sampleSize, withHomeStore } from './configuration-runs';
import { CARRIED_KNOWLEDGE } from './knowledge-carry';
import { SPEED_SAMPLE_SIZE, speedSample } from './speed-sample';

/** Deletes every answer of the home's LLM cache, so the next configuration asks the model for each call. */
async function emptyLlmCache(home: string): Promise<number> {
  return withHomeStore(home, async (store) => {
    const keys = await store.list(LLM_CACHE_KIND);
    for (const key of keys) await store.delete(LLM_CACHE_KIND, key);
    return keys.length;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      presets: { type: 'string', default: 'quick,hybrid' },
      ablations: { type: 'string', default: '' },
      limit: { type: 'string', default: String(SPEED_SAMPLE_SIZE) },
      'few-shot': { type: 'string', default: 'spider-train' },
      knowledge: { type: 'string', default: CARRIED_KNOWLEDGE },
      'no-notes': { type: 'boolean', default: false },
      home: { type: 'string', default: '.decodex/bench-speed' },
    },
  });
  const sample = speedSample(sampleSize(values.limit!));
  const configurations = [...parseConfigurations(values.presets!), ...parseConfigurations(values.ablations!)];
  const llmConfig = loadLlmConfig(process.env);
  const home = path.resolve(values.home!);
  mkdirSync(home, { recursive: true });
  const knowledge = await homeKnowledge('bench:speed', home, { fewShot: values['few-shot']!, notes: !values['no-notes'], knowledgeFile: values.knowledge! });
  // This run's own ids: a benchmark id that ran before would resume, its finished questions not asked again.
  const run = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  const benchmarks = configurations
    .map((c) => benchmarkOf('speed', c, 'spider-dev', sample, llmConfig, knowledge))
    .map((b) => ({ ...b, benchmarkId: `${b.benchmarkId}-${run}` }));

  await runConfigurations({
    bench: 'bench:speed',
    home,
    dataset: 'spider-dev',
    sample,
    knowledge,
    benchmarks,
    queuePrefix: 'bench-speed.',
    hooks: {
      starting: async ({ label }) => console.error(`bench:speed: ${await emptyLlmCache(home)} cached model answers deleted before ${label}`),
      finished: async (row) => {
        for (const line of speedLines(row)) console.log(line);
      },
    },
  });
  console.log(`model: ${path.basename(settingsForRole(llmConfig, 'generator').model)}`);
  console.log(`model_threads: ${llmConfig.local.threads}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:speed: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
