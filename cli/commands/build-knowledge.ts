import path from 'node:path';
import { parseArgs } from 'node:util';
import { FEW_SHOT_JOB_DEFAULTS, isExampleFile, type BuildFewShotIndexInput, type BuildFewShotIndexResult } from '../../core/knowledge/few-shot-job-types';
import { FEW_SHOT_SOURCES } from '../../activities/knowledge/few-shot-sources';
import { settingsForRole } from '../../activities/llm/llm-config';
import { datasetsRoot } from '../../core/datasets/datasets-root';
import { DECOMPOSITION_KB_DEFAULTS, type BuildDecompositionKbInput } from '../../core/knowledge/decomposition-kb-types';
import { resolvePipelineConfig } from '../../core/pipeline/pipeline-config';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES, taskQueue, type TaskQueueName } from '../../core/task-queues';
import { loadWorkerLlmConfig } from '../../workers/build-deps';
import type { buildDecompositionKnowledge } from '../../workflows/build-decomposition-knowledge';
import type { buildFewShotIndex } from '../../workflows/build-few-shot-index';
import { decompositionKbProgressQuery, progressQuery } from '../../workflows/queries';
import { resolveDatasetArgument } from '../dataset-argument';
import { fewShotJobId, parseFewShotSources } from '../few-shot-source-list';
import { ProgressBar } from '../progress-bar';
import { resultOrFailure } from '../run-failure';
import { escapeForTerminal } from '../terminal-text';
import { nonNegativeInt, positiveInt } from './bench';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `decodex build-knowledge few-shot|decompositions`: the resumable jobs that build the few-shot
 * index (no model) and DecoSearch's decomposition knowledge base (questions answered on the
 * complex route). Rerunning the same command resumes the job under the same id.
 */
async function buildKnowledge(config: RuntimeConfig, args: string[]): Promise<number> {
  const [kind, ...rest] = args;
  if (kind !== 'few-shot' && kind !== 'decompositions') throw new UsageError('build-knowledge needs few-shot or decompositions');
  const { values } = parseArgs({
    args: rest,
    options: {
      sources: { type: 'string', default: FEW_SHOT_SOURCES.join(',') },
      'sql-timeout-ms': { type: 'string' },
      dataset: { type: 'string', default: 'spider-train' },
      sample: { type: 'string' },
      seed: { type: 'string' },
      preset: { type: 'string' },
      'max-tokens': { type: 'string' },
      'max-calls': { type: 'string' },
      concurrency: { type: 'string' },
      id: { type: 'string' },
      json: { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      detach: { type: 'boolean' },
    },
  });
  const root = datasetsRoot(process.env);
  const queues: TaskQueueName[] = kind === 'few-shot' ? ['offline'] : ALL_TASK_QUEUES;
  const detach = values.detach;
  // A mistaken source or option is said before a worker starts.
  const fewShot = kind === 'few-shot' ? fewShotInput(values.sources!, values['sql-timeout-ms'], root) : undefined;
  return withClientSession(config, { noWorker: values['no-worker'] || detach, queues }, async (decodex, session) => {
    const client = decodex.client;
    if (fewShot) {
      const input = fewShot;
      const workflowId = values.id ?? fewShotJobId(input.sources);
      const handle = await client.workflow.start<typeof buildFewShotIndex>('buildFewShotIndex', {
        taskQueue: taskQueue('offline', config.queuePrefix),
        workflowId,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [input],
        staticSummary: `few-shot index from ${input.sources.map((s) => path.basename(s)).join(', ')}`,
      });
      const run = { workflowId, runId: handle.firstExecutionRunId, what: `the few-shot index job ${workflowId}`, queues };
      if (detach) return session.detach(run, values.json);
      log(`few-shot index job ${workflowId}\n  ${workflowUiLink(config, workflowId, handle.firstExecutionRunId)}`);
      session.watch(run, 'detach');
      return printFewShotIndex(decodex, run, values.json);
    }
    settingsForRole(loadWorkerLlmConfig(config, process.env), 'generator');
    const dataset = resolveDatasetArgument(values.dataset!);
    const d = DECOMPOSITION_KB_DEFAULTS;
    const input: BuildDecompositionKbInput = {
      ...d,
      jobId: values.id ?? `decompositions-${path.basename(dataset)}-n${values.sample ?? d.sample.size}-s${values.seed ?? d.sample.seed}`,
      dataset,
      datasetsRoot: root,
      sample: { size: nonNegativeInt(values.sample, '--sample') || d.sample.size, seed: values.seed === undefined ? d.sample.seed : Number(values.seed) },
      answer: { preset: values.preset ?? d.answer.preset },
      budget: {
        maxTokens: nonNegativeInt(values['max-tokens'], '--max-tokens') || d.budget.maxTokens,
        maxLlmCalls: nonNegativeInt(values['max-calls'], '--max-calls') || d.budget.maxLlmCalls,
      },
      concurrency: nonNegativeInt(values.concurrency, '--concurrency') || d.concurrency,
      sqlTimeoutMs: positiveInt(values['sql-timeout-ms'], '--sql-timeout-ms') ?? d.sqlTimeoutMs,
    };
    try {
      resolvePipelineConfig(input.answer.preset, [], { decomposition: { enabled: true, always: true } });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const handle = await client.workflow.start<typeof buildDecompositionKnowledge>('buildDecompositionKnowledge', {
      taskQueue: taskQueue('offline', config.queuePrefix),
      workflowId: input.jobId,
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [input],
      staticSummary: `decomposition knowledge base from ${input.sample.size} ${dataset} questions`,
    });
    const run = { workflowId: input.jobId, runId: handle.firstExecutionRunId, what: `the decomposition knowledge base job ${input.jobId}`, queues };
    if (detach) return session.detach(run, values.json);
    log(`decomposition knowledge base job ${input.jobId}\n  ${workflowUiLink(config, input.jobId, handle.firstExecutionRunId)}`);
    // Ctrl-C stops watching: the job keeps what it built and resumes.
    session.watch(run, 'detach');
    return printDecompositionKnowledge(decodex, run, values.json);
  });
}

/** The few-shot job's input from the command's options: `--sql-timeout-ms` bounds each run of a file's example, so it needs a file. */
function fewShotInput(sources: string, sqlTimeoutMs: string | undefined, root: string): BuildFewShotIndexInput {
  let list: string[];
  try {
    list = parseFewShotSources(sources);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const timeout = positiveInt(sqlTimeoutMs, '--sql-timeout-ms');
  if (timeout !== undefined && !list.some(isExampleFile)) {
    throw new UsageError('--sql-timeout-ms bounds the run of each example of a .jsonl file; the named training sets are not run');
  }
  return { ...FEW_SHOT_JOB_DEFAULTS, sqlTimeoutMs: timeout ?? FEW_SHOT_JOB_DEFAULTS.sqlTimeoutMs, sources: list, datasetsRoot: root };
}

/** A job's result with a progress bar fed by `poll` once a second. */
async function withProgress<T>(result: Promise<T>, poll: () => Promise<{ step: string; done: number; total: number } | null>): Promise<T> {
  const bar = new ProgressBar();
  let finished = false;
  void result.finally(() => (finished = true)).catch(() => {});
  while (!finished) {
    await Promise.race([result.catch(() => undefined), sleep(1000)]);
    const p = await poll().catch(() => null);
    if (p) bar.update(p);
  }
  bar.finish();
  return result;
}

/** Waits for a few-shot index job and prints what it built, as `build-knowledge few-shot` does. */
export async function printFewShotIndex(decodex: DecodexClient, run: WatchedRun, json: boolean | undefined): Promise<number> {
  const handle = decodex.client.workflow.getHandle<typeof buildFewShotIndex>(run.workflowId);
  const outcome = await resultOrFailure(withProgress(decodex.result<BuildFewShotIndexResult>(run.workflowId), () => handle.query(progressQuery)));
  if (!outcome.ok) {
    console.log(
      json
        ? JSON.stringify({ outcome: 'failed', error: outcome.error }, null, 2)
        : escapeForTerminal(`few-shot index: failed (${outcome.error.kind}: ${outcome.error.message})`),
    );
    return 1;
  }
  console.log(json ? JSON.stringify(outcome.value, null, 2) : escapeForTerminal(fewShotSummary(outcome.value), { keepNewlines: true }));
  return 0;
}

/** What was indexed, what was rejected and, for the first rejections, where and why (older jobs' results have no rejections). */
function fewShotSummary(result: BuildFewShotIndexResult): string {
  const lines = [`few-shot index: ${result.examples} examples in ${result.collection}`];
  for (const [file, count] of Object.entries(result.files ?? {})) lines.push(`${file}: ${count.indexed} indexed, ${count.rejected} rejected`);
  if (result.rejected) {
    lines.push(
      `rejected: ${result.rejected} examples whose SQL did not run${result.rejected > result.rejections.length ? ` (the first ${result.rejections.length}):` : ':'}`,
    );
    for (const r of result.rejections) lines.push(`  ${path.basename(r.source)}:${r.line} "${r.question}": ${r.reason}`);
  }
  return lines.join('\n');
}

/** Waits for a decomposition knowledge base job and prints its result, as `build-knowledge decompositions` does. */
export async function printDecompositionKnowledge(decodex: DecodexClient, run: WatchedRun, json: boolean | undefined): Promise<number> {
  const handle = decodex.client.workflow.getHandle<typeof buildDecompositionKnowledge>(run.workflowId);
  const result = await withProgress(decodex.result<Awaited<ReturnType<typeof buildDecompositionKnowledge>>>(run.workflowId), async () => {
    const p = await handle.query(decompositionKbProgressQuery);
    return { step: p.phase, done: p.done, total: p.total };
  });
  const p = result.progress;
  console.log(
    json
      ? JSON.stringify(result, null, 2)
      : `status: ${result.status}${result.stoppedBy ? ` (${result.stoppedBy})` : ''}\nquestions: ${p.done}/${p.total}; stored ${p.stored}, wrong ${p.wrong}, without a DAG ${p.withoutDag}, right but no example ${p.unusable}\nspent: ${p.llmCalls} paid LLM calls, ${p.tokens} tokens`,
  );
  return result.status === 'completed' ? 0 : 1;
}

export const buildKnowledgeCommand: Command = {
  name: 'build-knowledge',
  examples: [
    'npx decodex build-knowledge few-shot',
    'npx decodex build-knowledge few-shot --sources spider-train,bird-train',
    'npx decodex build-knowledge few-shot --sources spider-train,./my-examples.jsonl --sql-timeout-ms 10000',
    'npx decodex build-knowledge decompositions --sample 200 --max-calls 2000',
  ],
  usage:
    'build-knowledge few-shot [--sources spider-train,bird-train,<file.jsonl>] | decompositions [--dataset spider-train|<file.jsonl>] [--sample N] [--seed S] [--preset P]\n' +
    '        [--max-tokens N] [--max-calls N] [--concurrency N] [--sql-timeout-ms N] [--id ID] [--json] [--no-worker] [--detach]',
  run: buildKnowledge,
};
