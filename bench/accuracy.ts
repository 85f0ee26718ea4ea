/**
 * Execution accuracy of decodex's configurations with the local SQL model, side by side on one
 * fixed sample: a seeded sample of Spider dev stratified by database and hardness, each question
 * asked through the real `answerQuestion` workflow (via `runBenchmark`) on a Temporal dev server
 * with in-process workers, and scored by Spider's rules.
 *
 *   npm run bench:accuracy                                     # 100 questions; quick, decosearch, dextersql, hybrid
 *   npm run bench:accuracy -- --limit 30 --presets quick,hybrid
 *   npm run bench:accuracy -- --ablations hybrid:correction,hybrid:selection,decosearch:judger
 *   npm run bench:accuracy -- --ablations 'dextersql@selection.confidenceThreshold=0.8'
 *
 *   npm run bench:accuracy -- --ablations 'hybrid@judging.enabled=true;generation.paths=direct,dependency-tree,few-shot,divide-and-conquer'
 *   npm run bench:accuracy -- --dataset spider-train --presets hybrid --no-notes --home .decodex/bench-train
 *
 * `--dataset spider-train` samples Spider's training split instead (stratified by database only:
 * its questions carry no parsed SQL to grade hardness), the split a change is tuned on before
 * Spider dev reports it.
 *
 * A configuration is `preset[:ablation+ablation...][@section.key=value;section.key=value...]`; a
 * list value keeps its commas (bench/accuracy-configurations.ts).
 *
 * Prints, per configuration, `name: value` lines: ex_<label>, its 95% Wilson interval,
 * ex_<label>_<hardness>, seconds_per_question_<label>, input_tokens_per_question_<label>,
 * prompt_tokens_evaluated_fraction_<label>, linking_recall_<label> (the focused schema against
 * the gold SQL's columns), kept_fraction_<label> (the focused schema's share of the database's
 * columns), failing_sql_<label>, and what the model did in this run whatever the
 * machine's speed: evaluated_prompt_tokens_per_question_<label>, generated_tokens_per_question_<label>
 * and decode_passes_per_question_<label> (a replayed call costs none); writes accuracy.md (the table) and accuracy.svg (EX against seconds
 * per question) into the home folder.
 *
 * Resumable: everything lives in one decodex home (default .decodex/bench-accuracy): finished
 * questions are stored per configuration and not asked again, and every model answer is in the
 * LLM cache, so an interrupted question replays its earlier calls for free. seconds_per_question
 * is the wall time of the questions as they ran; a question resumed from the cache looks faster.
 *
 * Offline knowledge, built once per home before the configurations run, as the papers build it
 * before answering: every database of the sample is prepared with the model (`decodex prepare`:
 * profiles, indices and the explorator's disambiguation notes; a database a question opens
 * unprepared would be prepared without a model, so DexterSQL's notes stage would have nothing;
 * `--no-notes` skips it), and the few-shot index is built from `--few-shot` (default spider-train;
 * `--few-shot ''` for none). The benchmark ids say which of the two a run had. Mined correction rules
 * and DecoSearch's decomposition knowledge base are not built: each means answering hundreds of
 * training questions with the model (hours on a CPU), so `dextersql` runs without rules and the
 * decomposer without retrieved examples; both stages say so in every trace.
 *
 * Slow (a CPU model answering hundreds of questions): run it in the background. The model's
 * threads come from DECODEX_LLM_LOCAL_THREADS (default: the cores not busy when it starts).
 *
 *   npm run bench:accuracy -- --report-only [--common]
 *
 * prints the same lines from what is stored so far, without running anything (a run still going,
 * or one interrupted); --common keeps only the questions every listed configuration has finished,
 * so partial results compare the same questions.
 *
 * Carried answers (`--carry`, default bench/carry/accuracy-llm-answers.jsonl.gz; `--carry ''` for
 * none): the home's LLM cache is read from that file before anything runs and written back to it
 * as questions finish and by --report-only, so a table too long for one machine's sitting goes on
 * from another clone: what was answered before replays, only the rest asks the model
 * (bench/llm-answer-carry.ts). Replayed questions are fast: see the "cached calls" column.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@temporalio/client';
import { loadDataset } from '../activities/benchmark/datasets/load-dataset';
import type { DecodexClient } from '../cli/client';
import { startBenchTemporal } from './bench-temporal';
import { FEW_SHOT_SOURCES } from '../activities/knowledge/few-shot-sources';
import { FEW_SHOT_JOB_DEFAULTS, type BuildFewShotIndexInput } from '../core/knowledge/few-shot-job-types';
import { taskQueue } from '../core/task-queues';
import type { buildFewShotIndex } from '../workflows/build-few-shot-index';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { benchmarkStore } from '../activities/benchmark/benchmark-store';
import { loadLlmConfig, settingsForRole, type LlmConfig } from '../activities/llm/llm-config';
import { startBenchmark, waitForBenchmark } from '../cli/benchmark-client';
import { defaultBenchmarkId } from '../cli/benchmark-id';
import { modelsByRole } from '../cli/benchmark-models';
import { installQuietRuntime, withClientSession } from '../cli/commands/client-session';
import { accuracyLines, accuracyMarkdown, accuracyRow, type AccuracyRow } from '../core/benchmark/accuracy-table';
import type { RunBenchmarkInput } from '../core/benchmark/benchmark-types';
import { renderExSecondsChart } from '../core/benchmark/ex-seconds-chart';
import { exportCarriedAnswers, importCarriedAnswers } from './llm-answer-carry';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { pipelineLabel } from '../core/pipeline/pipeline-config';
import { parseConfigurations, type Configuration } from './accuracy-configurations';
import { resolveRuntimeConfig } from '../core/runtime-config';
import type { BenchmarkReport } from '../activities/benchmark/write-benchmark-report';

/** Spider dev to report on; Spider train to tune on (the few-shot index never shows a question its own answer). */
const DATASET_NAMES = { 'spider-dev': 'Spider dev', 'spider-train': 'Spider train' } as const;
type AccuracyDataset = keyof typeof DATASET_NAMES;

/** The benchmark of one configuration on the sample: its label, input and id (the same every run, so it resumes). */
function benchmarkOf(
  configuration: Configuration,
  dataset: AccuracyDataset,
  sample: { size: number; seed: number },
  llmConfig: LlmConfig,
  fewShot: string[],
  notes: boolean,
) {
  const label = pipelineLabel(configuration);
  const base: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'> = {
    dataset,
    datasetsRoot: datasetsRoot(process.env),
    sample,
    evaluation: { evaluator: 'spider', timeoutMs: 30_000, vesRepetitions: 0 },
    preset: configuration.preset,
    ...(configuration.ablations.length ? { ablations: configuration.ablations } : {}),
    ...(configuration.overrides ? { pipeline: configuration.overrides } : {}),
    // One question at a time: the model has the CPU to itself, so seconds per question mean something.
    concurrency: 1,
    label,
    roleModels: modelsByRole(llmConfig),
  };
  // The few-shot index changes what the few-shot path is shown: runs with and without it are apart.
  const knowledge = `${fewShot.length ? `-fs-${fewShot.join('+')}` : ''}${notes ? '-notes' : ''}`;
  return { label, base, benchmarkId: `accuracy-${defaultBenchmarkId(base).replace(/^bench-/, '')}${knowledge}` };
}

function writeTable(home: string, name: string, rows: AccuracyRow[], about: string): void {
  writeFileSync(path.join(home, `${name}.md`), accuracyMarkdown(rows, about));
  writeFileSync(path.join(home, `${name}.svg`), renderExSecondsChart(rows));
  console.log(`table: ${path.join(home, `${name}.md`)}`);
  console.log(`chart: ${path.join(home, `${name}.svg`)}`);
}

/** Where the model's answers are carried between clones (see the header); relative to the repository. */
const DEFAULT_CARRY = path.resolve(__dirname, 'carry', 'accuracy-llm-answers.jsonl.gz');

/** Opens the home's store for one job (the workers may hold it open too: SQLite WAL). */
async function withHomeStore<T>(home: string, job: (store: ReturnType<typeof openSqliteArtifactStore>) => Promise<T>): Promise<T> {
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  try {
    return await job(store);
  } finally {
    await store.close();
  }
}

async function saveCarry(home: string, carry: string): Promise<void> {
  if (!carry) return;
  const written = await withHomeStore(home, (store) => exportCarriedAnswers(store, carry));
  console.error(`bench:accuracy: ${written} model answers carried in ${carry}`);
}

/** --report-only: the rows from the records stored so far; with `common`, only questions every configuration finished. */
async function reportStored(home: string, benchmarks: { label: string; benchmarkId: string }[], common: boolean): Promise<AccuracyRow[]> {
  const records = await withHomeStore(home, (store) => Promise.all(benchmarks.map((b) => benchmarkStore(store).records(b.benchmarkId))));
  const shared = records.reduce((keep, list) => new Set(list.map((r) => r.index).filter((i) => keep.has(i))), new Set(records[0]?.map((r) => r.index)));
  return benchmarks.map((b, i) => accuracyRow(b.label, common ? records[i].filter((r) => shared.has(r.index)) : records[i]));
}

/**
 * Every database of the sample prepared with the model, one after another (what `decodex prepare`
 * does; a database prepared before is not profiled again, and the model's answers are cached).
 */
async function prepareWithModel(client: DecodexClient, dataset: AccuracyDataset, sample: { size: number; seed: number }): Promise<void> {
  const { questions } = loadDataset({ dataset, root: datasetsRoot(process.env), sample });
  const databases = [...new Map(questions.filter((q) => !q.notExecutable).map((q) => [q.dbId, q.database])).entries()];
  for (const [i, [dbId, database]] of databases.entries()) {
    try {
      const { result } = await client.prepare({ database, config: { exploration: { useLlm: true } } });
      console.error(`bench:accuracy: prepared ${dbId} (${i + 1}/${databases.length}): ${result.manifest.counts.notes} notes`);
    } catch (err) {
      // Its questions still run: the first one prepares it without a model, as for any user.
      console.error(`bench:accuracy: preparing ${dbId} with the model failed (${(err as Error).message}); its questions run without notes`);
    }
  }
}

/** The few-shot index of the home, from the given training sets (a job that skips what a previous run stored). */
async function buildFewShot(client: Client, sources: string[], queuePrefix: string): Promise<void> {
  const input: BuildFewShotIndexInput = { ...FEW_SHOT_JOB_DEFAULTS, sources, datasetsRoot: datasetsRoot(process.env) };
  const result = await client.workflow.execute<typeof buildFewShotIndex>('buildFewShotIndex', {
    taskQueue: taskQueue('offline', queuePrefix),
    workflowId: `few-shot-index-${sources.join('+')}`,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
  });
  console.error(`bench:accuracy: few-shot index of ${result.examples} examples from ${sources.join(', ')}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'spider-dev' },
      limit: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      presets: { type: 'string', default: 'quick,decosearch,dextersql,hybrid' },
      'few-shot': { type: 'string', default: 'spider-train' },
      'no-notes': { type: 'boolean', default: false },
      ablations: { type: 'string', default: '' },
      home: { type: 'string', default: '.decodex/bench-accuracy' },
      'report-only': { type: 'boolean', default: false },
      common: { type: 'boolean', default: false },
      carry: { type: 'string', default: DEFAULT_CARRY },
    },
  });
  const dataset = values.dataset as AccuracyDataset;
  if (!(dataset in DATASET_NAMES)) throw new Error(`--dataset takes ${Object.keys(DATASET_NAMES).join(' or ')}, got ${JSON.stringify(values.dataset)}`);
  const size = Number(values.limit);
  const seed = Number(values.seed);
  if (!Number.isInteger(size) || size < 1) throw new Error(`--limit must be a positive integer, got ${values.limit}`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
  const configurations = [...parseConfigurations(values.presets!), ...parseConfigurations(values.ablations!)];
  const llmConfig = loadLlmConfig(process.env);
  const generator = settingsForRole(llmConfig, 'generator');
  const home = path.resolve(values.home!);
  mkdirSync(home, { recursive: true });
  const about = `${DATASET_NAMES[dataset]}, ${size} questions (seed ${seed}, stratified by database${dataset === 'spider-dev' ? ' and hardness' : ''}), Spider's EX rules; model ${path.basename(generator.model)} (${generator.provider}).`;
  const fewShot = values['few-shot']!.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknownSource = fewShot.find((x) => !(FEW_SHOT_SOURCES as readonly string[]).includes(x));
  if (unknownSource) throw new Error(`--few-shot takes ${FEW_SHOT_SOURCES.join(', ')} (comma-separated) or '', got ${JSON.stringify(unknownSource)}`);
  const notes = !values['no-notes'];
  const benchmarks = configurations.map((c) => benchmarkOf(c, dataset, { size, seed }, llmConfig, fewShot, notes));

  const carry = values.carry!;
  if (carry) {
    const added = await withHomeStore(home, (store) => importCarriedAnswers(store, carry));
    console.error(`bench:accuracy: ${added} carried model answers added to the home's LLM cache (${carry})`);
  }

  if (values['report-only']) {
    await saveCarry(home, carry);
    const rows = await reportStored(home, benchmarks, values.common!);
    for (const row of rows) for (const line of accuracyLines(row)) console.log(line);
    const scope = values.common ? 'the questions every configuration has finished' : 'the questions each configuration has finished';
    writeTable(home, 'accuracy-so-far', rows, `${about} So far: ${scope}.`);
    return;
  }

  installQuietRuntime();
  const env = await startBenchTemporal();
  const rows: AccuracyRow[] = [];
  try {
    const runtime = {
      ...resolveRuntimeConfig({ ...process.env, DECODEX_HOME: home }, process.cwd()),
      temporalAddress: env.address,
      queuePrefix: 'bench-accuracy.',
    };
    await withClientSession(runtime, {}, async (client) => {
      if (notes) await prepareWithModel(client, dataset, { size, seed });
      if (fewShot.length) await buildFewShot(client.client, fewShot, runtime.queuePrefix);
      await saveCarry(home, carry); // the preparation's answers (the explorator's notes) took the longest
      for (const { label, base, benchmarkId } of benchmarks) {
        const reportDir = path.join(home, 'reports', benchmarkId);
        const handle = await startBenchmark(client.client, { ...base, benchmarkId, reportDir }, runtime.queuePrefix);
        console.error(`bench:accuracy: ${label} (${benchmarkId})`);
        let saving: Promise<void> | undefined;
        const { files } = await waitForBenchmark(
          client.client,
          handle.workflowId,
          (p) => {
            console.error(`  ${label}: ${p.done}/${p.total}, ${p.correct} correct`);
            // Carried as questions finish (progress is reported only when it changes), so a run
            // stopped at any point leaves its answers behind; the save after the run catches up.
            if (!carry || saving) return;
            saving = saveCarry(home, carry)
              .catch((err: unknown) => console.error(`bench:accuracy: could not carry the answers: ${(err as Error).message}`))
              .finally(() => (saving = undefined));
          },
          10_000,
        );
        await saving;
        await saveCarry(home, carry);
        const report = JSON.parse(readFileSync(files.report_json, 'utf8')) as BenchmarkReport;
        const row = accuracyRow(label, report.records);
        rows.push(row);
        for (const line of accuracyLines(row)) console.log(line);
      }
    });
  } finally {
    await env.teardown();
  }
  console.log(`model: ${path.basename(generator.model)}`);
  writeTable(home, 'accuracy', rows, about);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:accuracy: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
