import { parseArgs } from 'node:util';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { formatResult } from '../print-result';
import { formatRunFailure, resultOrFailure } from '../run-failure';
import { SAMPLE_QUESTION, ensureSampleDatabase } from '../sample-database';
import { ALL_TASK_QUEUES } from '../../core/task-queues';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { databaseForCommand, withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineFromOptions } from './pipeline-options';
import { prepareLlm } from './prepare-llm';

async function ask(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      evidence: { type: 'string' },
      ...PIPELINE_OPTIONS,
      json: { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      detach: { type: 'boolean' },
    },
  });
  const question = positionals.join(' ').trim();
  if (!values.db) throw new UsageError('ask needs --db <sqlite path | mysql://user:pass@host:port/db | postgres://user:pass@host:port/db>');
  if (!question) throw new UsageError('ask needs a question, e.g. decodex ask --db shop.sqlite "How many customers are there?"');
  const pipeline = pipelineFromOptions(values).choice;
  const { database, databasePasswords } = databaseForCommand(config, values.db, values['no-worker'], values.detach);
  await prepareLlm(config, !values['no-worker'] && !values.detach, log);

  const detach = values.detach;
  return withClientSession(config, { noWorker: values['no-worker'] || detach, databasePasswords }, async (client, session) => {
    const started = await client.startQuestion({ question, database, evidence: values.evidence, ...pipeline });
    const run = { workflowId: started.workflowId, runId: started.runId, what: 'the question', queues: ALL_TASK_QUEUES };
    if (detach) return session.detach(run, values.json);
    log(`started ${started.workflowId}\n  ${workflowUiLink(config, started.workflowId, started.runId)}`);
    // Ctrl-C means the answer is no longer wanted: the run is cancelled, not left to a worker.
    session.watch(run, 'cancel');
    return printAnswer(config, client, run, values.json);
  });
}

/** Waits for a question run and prints its answer (or why it failed) as `ask` does; the exit code is 0 only when it was answered. */
export async function printAnswer(config: RuntimeConfig, client: DecodexClient, run: WatchedRun, json: boolean | undefined): Promise<number> {
  const link = workflowUiLink(config, run.workflowId, run.runId);
  const outcome = await resultOrFailure(client.answer(run.workflowId));
  if (!outcome.ok) {
    console.log(formatRunFailure(outcome.error, { workflowId: run.workflowId, uiLink: link }, json));
    return 1;
  }
  const result = outcome.value;
  console.log(json ? JSON.stringify({ workflowId: run.workflowId, uiLink: link, ...result }, null, 2) : formatResult(result, link));
  return result.outcome === 'answered' ? 0 : 1;
}

export const askCommand: Command = {
  name: 'ask',
  examples: [
    'npx decodex ask --db shop.sqlite "How many customers are there?"',
    'npx decodex ask --db mysql://reader:secret@localhost:3306/shop --preset decosearch "Which product sells best?"',
    'npx decodex ask --db postgres://reader:secret@localhost:5432/shop "How many orders shipped last week?"',
    'npx decodex ask --db shop --no-worker --json "How many orders in 2024?"   # shop: a connection configured on the worker',
    'npx decodex ask --db shop --detach "How many orders in 2024?"   # prints the run id; npx decodex follow <id> prints the answer',
  ],
  usage: `ask --db <sqlite path | mysql://url | postgres://url> [--evidence <text>] ${PIPELINE_USAGE} [--json] [--no-worker] [--detach] "<question>"`,
  run: ask,
};

export const demoCommand: Command = {
  name: 'demo',
  examples: ['npx decodex demo', 'npx decodex demo --preset hybrid'],
  usage: 'demo [--preset P]                 answer a question over the built-in sample database (preset quick: one model call)',
  // The bundled 270M model answers one call well enough to show the whole path; the full
  // pipeline asks about ten (`--preset hybrid` runs it, better with a bigger model).
  run: (config, args) =>
    ask(config, ['--db', ensureSampleDatabase(config.home), ...(args.includes('--preset') ? [] : ['--preset', 'quick']), ...args, SAMPLE_QUESTION]),
};
