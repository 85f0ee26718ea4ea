import path from 'node:path';
import { parseArgs } from 'node:util';
import { settingsForRole } from '../../activities/llm/llm-config';
import { datasetsRoot } from '../../core/datasets/datasets-root';
import { MINING_DEFAULTS, validateMiningInput, type ClusteringMethod, type MineRulesInput, type MineRulesResult } from '../../core/mining/mining-types';
import { PRESET_NAMES, PRESETS, resolvePipelineConfig } from '../../core/pipeline/pipeline-config';
import { rolesOfStage } from '../../core/prompts/prompt-catalog';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES } from '../../core/task-queues';
import { loadWorkerLlmConfig } from '../../workers/build-deps';
import { modelsByRole } from '../benchmark-models';
import { startMining, waitForMining } from '../mining-client';
import { resolveDatasetArgument } from '../dataset-argument';
import { ProgressBar } from '../progress-bar';
import { loadPrices, positiveInt } from './bench';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineFromOptions } from './pipeline-options';

async function mineRulesCli(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      dataset: { type: 'string', default: 'spider-train' },
      sample: { type: 'string' },
      seed: { type: 'string' },
      databases: { type: 'string' },
      ...PIPELINE_OPTIONS,
      'batch-size': { type: 'string' },
      'min-group-size': { type: 'string' },
      clustering: { type: 'string' },
      'max-tokens': { type: 'string' },
      'max-calls': { type: 'string' },
      'max-cost': { type: 'string' },
      prices: { type: 'string' },
      concurrency: { type: 'string' },
      'questions-per-run': { type: 'string' },
      id: { type: 'string' },
      json: { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      detach: { type: 'boolean' },
    },
  });
  const llmConfig = loadWorkerLlmConfig(config, process.env);
  // Without a model nothing can be mined: say so now, naming what to set.
  for (const role of ['generator', ...rolesOfStage('mining')]) settingsForRole(llmConfig, role);
  const prices = loadPrices(config, values.prices);
  const maxCost = values['max-cost'] === undefined ? undefined : Number(values['max-cost']);
  const d = MINING_DEFAULTS;
  const dataset = resolveDatasetArgument(values.dataset!);
  const base: Omit<MineRulesInput, 'jobId'> = {
    ...d,
    dataset,
    datasetsRoot: datasetsRoot(process.env),
    sample: {
      size: positiveInt(values.sample, '--sample') ?? d.sample.size,
      seed: values.seed === undefined ? d.sample.seed : Number(values.seed),
      ...(values.databases ? { databases: values.databases.split(',').map((s) => s.trim()) } : {}),
    },
    answer: values.preset || values.ablation || values.set ? pipelineFromOptions(values).choice : d.answer,
    clustering: {
      ...d.clustering,
      batchSize: positiveInt(values['batch-size'], '--batch-size') ?? d.clustering.batchSize,
      minGroupSize: positiveInt(values['min-group-size'], '--min-group-size') ?? d.clustering.minGroupSize,
      method: (values.clustering as ClusteringMethod | undefined) ?? d.clustering.method,
    },
    budget: {
      maxTokens: positiveInt(values['max-tokens'], '--max-tokens') ?? d.budget.maxTokens,
      maxLlmCalls: positiveInt(values['max-calls'], '--max-calls') ?? d.budget.maxLlmCalls,
      ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
    },
    ...(prices ? { prices, roleModels: modelsByRole(llmConfig) } : {}),
    concurrency: positiveInt(values.concurrency, '--concurrency') ?? d.concurrency,
    questionsPerRun: positiveInt(values['questions-per-run'], '--questions-per-run') ?? d.questionsPerRun,
  };
  // The id says what is mined, so the same command resumes the same job (with whatever budget it is given now).
  const jobId = values.id ?? `mine-${path.basename(dataset).replace(/\.jsonl$/, '')}-n${base.sample.size}-s${base.sample.seed}`;
  const input: MineRulesInput = { ...base, jobId };
  try {
    validateMiningInput(input);
    resolvePipelineConfig(input.answer.preset, input.answer.ablations, input.answer.pipeline);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }

  const detach = values.detach;
  return withClientSession(config, { noWorker: values['no-worker'] || detach, queues: ALL_TASK_QUEUES }, async (decodex, session) => {
    const handle = await startMining(decodex.client, input, config.queuePrefix);
    const run = { workflowId: jobId, runId: handle.firstExecutionRunId, what: `the mining job ${jobId}`, queues: ALL_TASK_QUEUES };
    if (detach) return session.detach(run, values.json);
    log(`mining job ${jobId}\n  ${workflowUiLink(config, handle.workflowId, handle.firstExecutionRunId)}`);
    // Ctrl-C stops watching: the job keeps what it mined and resumes.
    session.watch(run, 'detach');
    return printMining(decodex, run, values.json);
  });
}

/** Waits for a mining job with a progress bar and prints its result as `mine-rules` does; exit code 0 when it completed. */
export async function printMining(decodex: DecodexClient, run: WatchedRun, json: boolean | undefined): Promise<number> {
  const bar = new ProgressBar();
  let examplesSaid = false;
  const result: MineRulesResult = await waitForMining(decodex.client, run.workflowId, (p) => {
    // Said once, first: whether the few-shot index holds the questions being mined, and what is excluded.
    if (p.examples && !examplesSaid) log(`  examples: ${p.examples}`);
    examplesSaid ||= !!p.examples;
    bar.update(p.phase === 'mining' ? { step: 'mining', done: p.done, total: p.total } : { step: p.phase, done: p.phase === 'done' ? 1 : 0, total: 1 });
  });
  bar.finish();
  const p = result.progress;
  if (json) console.log(JSON.stringify(result, null, 2));
  else
    console.log(
      [
        `status: ${result.status}${result.stoppedBy ? ` (${result.stoppedBy}; run the same command with a larger budget to resume)` : ''}`,
        `questions mined: ${p.done}/${p.total}${p.failedQuestions ? ` (${p.failedQuestions} failed: ${p.lastFailure})` : ''}`,
        ...(p.examples ? [`examples: ${p.examples}`] : []),
        `failures: ${p.failures}, database-agnostic: ${p.agnosticFailures}, groups: ${p.groups}, dominant: ${p.dominantGroups}`,
        `rules: ${result.rules.length}${result.rulesVersion ? ` (published as ${result.rulesVersion})` : ''}`,
        ...result.rules.map((r) => `  [${r.id}] ${r.gist}`),
        ...(result.rules.length ? [`read by: ${presetsReadingRules().join(', ')} (any other with --set correction.rules=true)`] : []),
        `spent: ${p.llmCalls} paid LLM calls, ${p.tokens} tokens${p.costUsd === null ? '' : `, $${p.costUsd.toFixed(4)}`}`,
      ].join('\n'),
    );
  return result.status === 'completed' ? 0 : 1;
}

/** The presets whose correction applies stored rules: a user who mined rules learns which runs use them. */
function presetsReadingRules(): string[] {
  return PRESET_NAMES.filter((name) => PRESETS[name].correction.enabled && PRESETS[name].correction.rules);
}

export const mineRulesCommand: Command = {
  name: 'mine-rules',
  examples: ['npx decodex mine-rules --sample 100 --max-calls 500', 'npx decodex mine-rules --dataset my-train.jsonl --sample 50 --preset dextersql --json'],
  usage:
    `mine-rules [--dataset spider-train|<file.jsonl>] [--sample N] [--seed S] [--databases a,b] ${PIPELINE_USAGE}\n` +
    '        [--batch-size N] [--min-group-size N] [--clustering llm|sql-differences] [--max-tokens N] [--max-calls N] [--max-cost USD --prices FILE] [--concurrency N] [--id ID] [--json] [--no-worker] [--detach]',
  run: mineRulesCli,
};
