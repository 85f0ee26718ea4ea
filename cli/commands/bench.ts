import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { settingsForRole } from '../../activities/llm/llm-config';
import type { RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import type { SampleSpec } from '../../core/benchmark/stratified-sample';
import { validatePriceTable, type PriceTable } from '../../core/benchmark/cost';
import type { BenchmarkSummary } from '../../core/benchmark/summarize-benchmark';
import { summaryLines } from '../../core/benchmark/summary-lines';
import { datasetDatabasesProblem } from '../../activities/benchmark/datasets/dataset-databases';
import { isSpiderSplit } from '../../activities/benchmark/datasets/load-dataset';
import { isServerUrl } from '../../core/database-reference';
import { datasetsRoot } from '../../core/datasets/datasets-root';
import type { EvaluatorName } from '../../core/datasets/benchmark-question';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import { loadWorkerLlmConfig, readConfigFile } from '../../workers/build-deps';
import { startBenchmark, waitForBenchmark } from '../benchmark-client';
import { defaultBenchmarkId } from '../benchmark-id';
import { configuredAnswerSettings, modelsByRole } from '../benchmark-models';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineFromOptions } from './pipeline-options';

const OFFICIAL_TIMEOUT_MS = 30_000;
const OFFICIAL_VES_REPETITIONS = 100;

export function nonNegativeInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** An option that must be at least 1 when given. */
export function positiveInt(value: string | undefined, name: string): number | undefined {
  const n = nonNegativeInt(value, name);
  if (n === 0) throw new UsageError(`${name} must be at least 1`);
  return n;
}

/** --sample N [--seed S]: a seeded sample stratified by database and difficulty (seed 1 unless given). */
function sampleOption(size: string | undefined, seed: string | undefined): { sample?: SampleSpec } {
  if (size === undefined) {
    if (seed !== undefined) throw new UsageError('--seed needs --sample N');
    return {};
  }
  const n = nonNegativeInt(size, '--sample');
  if (!n) throw new UsageError('--sample must be a positive integer');
  return { sample: { size: n, seed: nonNegativeInt(seed, '--seed') ?? 1 } };
}

/** --databases: a folder in the dataset's layout, or a server URL naming each database by `{db_id}`. */
function databasesOption(databases: string | undefined): { databaseDir?: string } {
  if (databases === undefined) return {};
  const problem = datasetDatabasesProblem(databases);
  if (problem) throw new UsageError(`--databases: ${problem}`);
  return { databaseDir: isServerUrl(databases) ? databases : path.resolve(databases) };
}

/** --prices file, else the `prices` section of DECODEX_CONFIG, else none (cost n/a). */
export function loadPrices(config: RuntimeConfig, file: string | undefined): PriceTable | undefined {
  if (file) return validatePriceTable(JSON.parse(readFileSync(path.resolve(file), 'utf8')), file);
  const fromConfig = (readConfigFile(config) as { prices?: unknown } | undefined)?.prices;
  return fromConfig === undefined ? undefined : validatePriceTable(fromConfig, 'DECODEX_CONFIG prices');
}

async function bench(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      dataset: { type: 'string' },
      ...PIPELINE_OPTIONS,
      limit: { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string' },
      'gold-as-prediction': { type: 'boolean' },
      evaluator: { type: 'string' },
      'timeout-ms': { type: 'string' },
      ves: { type: 'string' },
      'keep-distinct': { type: 'boolean' },
      concurrency: { type: 'string' },
      'questions-per-run': { type: 'string' },
      databases: { type: 'string' },
      out: { type: 'string' },
      id: { type: 'string' },
      fresh: { type: 'boolean' },
      label: { type: 'string' },
      prices: { type: 'string' },
      json: { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      detach: { type: 'boolean' },
    },
  });
  if (!values.dataset) throw new UsageError('bench needs --dataset spider-dev | spider-train | spider-syn-train | bird-dev | bird-mini-dev | <file.jsonl>');
  if (values.evaluator !== undefined && values.evaluator !== 'bird' && values.evaluator !== 'spider') throw new UsageError('--evaluator is bird or spider');
  const gold = values['gold-as-prediction'] ?? false;
  const pipeline = pipelineFromOptions(values).choice;
  const llmConfig = loadWorkerLlmConfig(config, process.env);
  // Without a model nothing can be asked: say so now (the error names what to set), not after the server started.
  if (!gold) settingsForRole(llmConfig, 'generator');
  const prices = loadPrices(config, values.prices);

  const dataset = values.dataset.endsWith('.jsonl') ? path.resolve(values.dataset) : values.dataset;
  if (dataset.endsWith('.jsonl') && values.databases !== undefined)
    throw new UsageError(
      "--databases applies to spider-dev, spider-train, spider-syn-train, bird-dev and bird-mini-dev; a JSONL dataset names each question's database itself",
    );
  // Each named dataset's official rules; a JSONL file is scored by BIRD's unless --evaluator says otherwise.
  const evaluator = (values.evaluator as EvaluatorName | undefined) ?? (isSpiderSplit(dataset) ? 'spider' : 'bird');
  const base: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'> = {
    dataset,
    datasetsRoot: datasetsRoot(process.env),
    ...databasesOption(values.databases),
    ...(values.limit !== undefined ? { limit: nonNegativeInt(values.limit, '--limit') } : {}),
    ...sampleOption(values.sample, values.seed),
    evaluation: {
      evaluator,
      timeoutMs: nonNegativeInt(values['timeout-ms'], '--timeout-ms') ?? OFFICIAL_TIMEOUT_MS,
      // VES is BIRD's metric: measured by default there, on request elsewhere.
      vesRepetitions: nonNegativeInt(values.ves, '--ves') ?? (evaluator === 'bird' ? OFFICIAL_VES_REPETITIONS : 0),
      ...(values['keep-distinct'] ? { keepDistinct: true } : {}),
    },
    goldAsPrediction: gold,
    ...pipeline,
    concurrency: nonNegativeInt(values.concurrency, '--concurrency') || (gold ? 8 : 4),
    ...(values['questions-per-run'] ? { questionsPerRun: nonNegativeInt(values['questions-per-run'], '--questions-per-run') } : {}),
    ...(values.label ? { label: values.label } : {}),
    ...(gold ? {} : { roleModels: modelsByRole(llmConfig) }),
    ...(prices ? { prices } : {}),
  };
  // A gold self-check is cheap and should reflect the evaluator as it is now: fresh by default.
  const freshSuffix = values.fresh || gold ? `-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}` : '';
  const benchmarkId = values.id ?? defaultBenchmarkId(base, gold ? {} : configuredAnswerSettings(llmConfig)) + freshSuffix;
  const input: RunBenchmarkInput = { ...base, benchmarkId, reportDir: path.resolve(values.out ?? path.join(config.home, 'benchmarks', benchmarkId)) };

  // Gold as prediction asks no model: the offline queue (benchmark workflow, evaluation) is all it needs.
  const queues: TaskQueueName[] = gold ? ['offline'] : ALL_TASK_QUEUES;
  const detach = values.detach;
  return withClientSession(config, { noWorker: values['no-worker'] || detach, queues }, async (decodex, session) => {
    const handle = await startBenchmark(decodex.client, input, config.queuePrefix);
    const run = { workflowId: handle.workflowId, runId: handle.firstExecutionRunId, what: `the benchmark ${benchmarkId}`, queues };
    if (detach) return session.detach(run, values.json);
    log(`benchmark ${benchmarkId}\n  ${workflowUiLink(config, handle.workflowId, handle.firstExecutionRunId)}`);
    // Ctrl-C stops watching: the benchmark keeps its finished questions and resumes.
    session.watch(run, 'detach');
    return printBenchmark(decodex, run, values.json, gold);
  });
}

/** Waits for a benchmark, reporting progress, and prints its summary as `bench` does (gold as prediction: the self-check's exit code). */
export async function printBenchmark(decodex: DecodexClient, run: WatchedRun, json: boolean | undefined, gold = false): Promise<number> {
  const { summary, files } = await waitForBenchmark(decodex.client, run.workflowId, (p) => log(`  ${p.done}/${p.total} evaluated, ${p.correct} correct`));
  console.log(json ? JSON.stringify({ summary, files }, null, 2) : summaryLines(summary, { ...files }).join('\n'));
  return gold ? goldSelfCheck(summary) : 0;
}

/**
 * The exit code of gold as prediction: 0 when every question whose gold query runs scores 1. A
 * gold query that fails on its database is said and listed (problem_ lines) but fails nothing: on
 * another engine than the dataset's (Spider on PostgreSQL) its dialect may refuse it, and such a
 * question scores no prediction either way.
 */
function goldSelfCheck(summary: BenchmarkSummary): number {
  if (summary.executableQuestions === 0) log('gold self-check: no executable question (every database is missing)');
  const failed = summary.executableQuestions - summary.goldRan;
  if (failed > 0) log(`gold self-check: ${failed} gold queries failed on their database (listed as problem_ lines); scored over the other ${summary.goldRan}`);
  return summary.goldRan === 0 || summary.exWhereGoldRuns < 1 ? 1 : 0;
}

export const benchCommand: Command = {
  name: 'bench',
  examples: [
    'npx decodex bench --dataset spider-dev --sample 50 --preset quick',
    'npx decodex bench --dataset bird-mini-dev --gold-as-prediction   # checks the evaluator and the databases, asks no model',
    "npx decodex bench --dataset spider-dev --gold-as-prediction --databases 'postgres://reader@localhost:5432/{db_id}'   # Spider's databases copied into PostgreSQL",
    'npx decodex bench --dataset my-questions.jsonl --evaluator spider --preset decosearch --ablation judger --label no-judger',
  ],
  usage:
    `bench --dataset spider-dev|spider-train|spider-syn-train|bird-dev|bird-mini-dev|<file.jsonl> ${PIPELINE_USAGE} [--limit N] [--sample N [--seed S]] [--gold-as-prediction]\n` +
    '        [--databases DIR | postgres://user@host:port/{db_id} | mysql://user@host:port/{db_id}] [--evaluator bird|spider] [--ves N]\n' +
    '        [--timeout-ms MS] [--concurrency N] [--out DIR] [--id ID | --fresh] [--prices FILE] [--json] [--no-worker] [--detach]',
  run: bench,
};
