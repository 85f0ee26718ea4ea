/**
 * What bench:accuracy and bench:speed share: configurations of decodex run side by side on one
 * seeded sample of Spider, each question asked through the real `answerQuestion` workflow (via
 * `runBenchmark`) on a Temporal dev server with in-process workers, one question at a time, after
 * the offline knowledge of the home is built (databases prepared with the model, the few-shot
 * index), and scored by Spider's rules into one accuracy row per configuration.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { loadDataset } from '../activities/benchmark/datasets/load-dataset';
import type { DecodexClient } from '../cli/client';
import { startBenchTemporal } from './bench-temporal';
import { FEW_SHOT_SOURCES } from '../activities/knowledge/few-shot-sources';
import { FEW_SHOT_JOB_DEFAULTS, type BuildFewShotIndexInput } from '../core/knowledge/few-shot-job-types';
import { taskQueue } from '../core/task-queues';
import type { buildFewShotIndex } from '../workflows/build-few-shot-index';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import type { LlmConfig } from '../activities/llm/llm-config';
import { startBenchmark, waitForBenchmark } from '../cli/benchmark-client';
import { defaultBenchmarkId } from '../cli/benchmark-id';
import { configuredAnswerSettings, modelsByRole } from '../cli/benchmark-models';
import { installQuietRuntime, withClientSession } from '../cli/commands/client-session';
import { accuracyRow, type AccuracyRow } from '../core/benchmark/accuracy-table';
import type { RunBenchmarkInput } from '../core/benchmark/benchmark-types';
import type { SampleSpec } from '../core/benchmark/stratified-sample';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { pipelineLabel } from '../core/pipeline/pipeline-config';
import type { Configuration } from './accuracy-configurations';
import { resolveRuntimeConfig } from '../core/runtime-config';
import type { BenchmarkReport } from '../activities/benchmark/write-benchmark-report';
import { loadLearnedKnowledge } from './knowledge-carry';

/**
 * Spider dev to report on; Spider train to tune on (the few-shot index never shows a question its own
 * answer), and Spider-Syn train, the same questions worded without the schema's names, to tune for
 * questions that do not name their columns.
 */
export const DATASET_NAMES = { 'spider-dev': 'Spider dev', 'spider-train': 'Spider train', 'spider-syn-train': 'Spider-Syn train' } as const;
export type BenchDataset = keyof typeof DATASET_NAMES;

/** The offline knowledge a home is given before its configurations run; part of every benchmark id. */
export interface HomeKnowledge {
  /** Training sets the few-shot index is built from (none: no index). */
  fewShot: string[];
  /** Every database of the sample prepared with the model first, so the explorator's notes exist. */
  notes: boolean;
  /** The fingerprint of the learned knowledge the home holds (decomposition examples, correction rules), if any (bench/knowledge-carry.ts). */
  learned?: string;
}

/** One configuration's benchmark on the sample: its label, input and id. */
export interface ConfigurationBenchmark {
  label: string;
  base: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'>;
  benchmarkId: string;
}

/**
 * The benchmark of one configuration on the sample. Its id is the same every run (`<idPrefix>-…`),
 * so the same command resumes it; a bench that must not resume adds a tail of its own.
 */
export function benchmarkOf(
  idPrefix: string,
  configuration: Configuration,
  dataset: BenchDataset,
  sample: SampleSpec,
  llmConfig: LlmConfig,
  knowledge: HomeKnowledge,
): ConfigurationBenchmark {
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
  // So does learned knowledge (the decomposer's examples, the rules correction applies).
  const tail = `${knowledge.fewShot.length ? `-fs-${knowledge.fewShot.join('+')}` : ''}${knowledge.notes ? '-notes' : ''}${knowledge.learned ? `-kn-${knowledge.learned}` : ''}`;
  return { label, base, benchmarkId: `${idPrefix}-${defaultBenchmarkId(base, configuredAnswerSettings(llmConfig)).replace(/^bench-/, '')}${tail}` };
}

/**
 * What a bench run's home holds besides its databases: the few-shot index's training sets, whether
 * notes are prepared, and the learned knowledge loaded from `knowledgeFile` ('' for none), whose
 * fingerprint goes into the benchmark ids (bench:accuracy and bench:speed alike).
 */
export async function homeKnowledge(bench: string, home: string, options: { fewShot: string; notes: boolean; knowledgeFile: string }): Promise<HomeKnowledge> {
  const learned = await withHomeStore(home, (store) =>
    loadLearnedKnowledge(home, store, options.knowledgeFile, process.env, (line) => console.error(`${bench}: ${line}`)),
  );
  return { fewShot: fewShotSources(options.fewShot), notes: options.notes, ...(learned ? { learned } : {}) };
}

/** `--few-shot`: comma-separated training sets, or '' for none; an unknown one stops here. */
export function fewShotSources(option: string): string[] {
  const sources = option
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = sources.find((x) => !(FEW_SHOT_SOURCES as readonly string[]).includes(x));
  if (unknown) throw new Error(`--few-shot takes ${FEW_SHOT_SOURCES.join(', ')} (comma-separated) or '', got ${JSON.stringify(unknown)}`);
  return sources;
}

/** `--limit`: the sample's size. */
export function sampleSize(option: string): number {
  const size = Number(option);
  if (!Number.isInteger(size) || size < 1) throw new Error(`--limit must be a positive integer, got ${option}`);
  return size;
}

/** Opens the home's store for one job (the workers may hold it open too: SQLite WAL). */
export async function withHomeStore<T>(home: string, job: (store: ReturnType<typeof openSqliteArtifactStore>) => Promise<T>): Promise<T> {
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  try {
    return await job(store);
  } finally {
    await store.close();
  }
}

/**
 * Every database of the sample prepared with the model, one after another (what `decodex prepare`
 * does; a database prepared before is not profiled again, and the model's answers are cached).
 */
async function prepareWithModel(bench: string, client: DecodexClient, dataset: BenchDataset, sample: SampleSpec): Promise<void> {
  const { questions } = loadDataset({ dataset, root: datasetsRoot(process.env), sample });
  const databases = [...new Map(questions.filter((q) => !q.notExecutable).map((q) => [q.dbId, q.database])).entries()];
  for (const [i, [dbId, database]] of databases.entries()) {
    try {
      const { result } = await client.prepare({ database, config: { exploration: { useLlm: true } } });
      console.error(`${bench}: prepared ${dbId} (${i + 1}/${databases.length}): ${result.manifest.counts.notes} notes`);
    } catch (err) {
      // Its questions still run: the first one prepares it without a model, as for any user.
      console.error(`${bench}: preparing ${dbId} with the model failed (${(err as Error).message}); its questions run without notes`);
    }
  }
}

/** The few-shot index of the home, from the given training sets (a job that skips what a previous run stored). */
async function buildFewShot(bench: string, client: Client, sources: string[], queuePrefix: string): Promise<void> {
  const input: BuildFewShotIndexInput = { ...FEW_SHOT_JOB_DEFAULTS, sources, datasetsRoot: datasetsRoot(process.env) };
  const result = await client.workflow.execute<typeof buildFewShotIndex>('buildFewShotIndex', {
    taskQueue: taskQueue('offline', queuePrefix),
    workflowId: `few-shot-index-${sources.join('+')}`,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
  });
  console.error(`${bench}: few-shot index of ${result.examples} examples from ${sources.join(', ')}`);
}

/** What a bench does around the runs: each hook is awaited before the run goes on. */
export interface RunHooks {
  /** The offline knowledge is built; no configuration has run yet. */
  knowledgeBuilt?: () => Promise<void>;
  /** A configuration is about to start (or resume). */
  starting?: (benchmark: ConfigurationBenchmark) => Promise<void>;
  /** A question of the running configuration finished (not awaited: the run goes on meanwhile). */
  progressed?: () => void;
  /** A configuration finished: its row, from its report. */
  finished?: (row: AccuracyRow) => Promise<void>;
}

export interface ConfigurationRuns {
  /** Names the bench in its log lines (`bench:accuracy`). */
  bench: string;
  home: string;
  dataset: BenchDataset;
  sample: SampleSpec;
  knowledge: HomeKnowledge;
  benchmarks: ConfigurationBenchmark[];
  /** Task queues of this bench's own workers. */
  queuePrefix: string;
  hooks?: RunHooks;
}

/** Builds the home's offline knowledge, then runs the configurations one after another; their rows, in order. */
export async function runConfigurations(runs: ConfigurationRuns): Promise<AccuracyRow[]> {
  const { bench, home, dataset, sample, knowledge, queuePrefix, hooks = {} } = runs;
  installQuietRuntime();
  const env = await startBenchTemporal();
  const rows: AccuracyRow[] = [];
  try {
    const runtime = { ...resolveRuntimeConfig({ ...process.env, DECODEX_HOME: home }, process.cwd()), temporalAddress: env.address, queuePrefix };
    await withClientSession(runtime, {}, async (client) => {
      if (knowledge.notes) await prepareWithModel(bench, client, dataset, sample);
      if (knowledge.fewShot.length) await buildFewShot(bench, client.client, knowledge.fewShot, queuePrefix);
      await hooks.knowledgeBuilt?.();
      for (const benchmark of runs.benchmarks) {
        const { label, base, benchmarkId } = benchmark;
        await hooks.starting?.(benchmark);
        const reportDir = path.join(home, 'reports', benchmarkId);
        const handle = await startBenchmark(client.client, { ...base, benchmarkId, reportDir }, queuePrefix);
        console.error(`${bench}: ${label} (${benchmarkId})`);
        const { files } = await waitForBenchmark(
          client.client,
          handle.workflowId,
          (p) => {
            console.error(`  ${label}: ${p.done}/${p.total}, ${p.correct} correct`);
            hooks.progressed?.();
          },
          10_000,
        );
        const report = JSON.parse(readFileSync(files.report_json, 'utf8')) as BenchmarkReport;
        const row = accuracyRow(label, report.records);
        rows.push(row);
        await hooks.finished?.(row);
      }
    });
  } finally {
    await env.teardown();
  }
  return rows;
}
