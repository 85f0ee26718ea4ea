import { parseArgs } from 'node:util';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { formatResult } from '../print-result';
import { formatRunFailure, resultOrFailure } from '../run-failure';
import { SAMPLE_QUESTION, ensureSampleDatabase } from '../sample-database';
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
    },
  });
  const question = positionals.join(' ').trim();
  if (!values.db) throw new UsageError('ask needs --db <sqlite path | mysql://user:pass@host:port/db | postgres://user:pass@host:port/db>');
  if (!question) throw new UsageError('ask needs a question, e.g. decodex ask --db shop.sqlite "How many customers are there?"');
  const pipeline = pipelineFromOptions(values).choice;
  const { database, databasePasswords } = databaseForCommand(config, values.db, values['no-worker']);
  await prepareLlm(config, !values['no-worker'], log);

  return withClientSession(config, { noWorker: values['no-worker'], databasePasswords }, async (client) => {
    const started = await client.startQuestion({ question, database, evidence: values.evidence, ...pipeline });
    const link = workflowUiLink(config, started.workflowId, started.runId);
    log(`started ${started.workflowId}\n  ${link}`);
    const run = await resultOrFailure(client.answer(started.workflowId));
    if (!run.ok) {
      console.log(formatRunFailure(run.error, { workflowId: started.workflowId, uiLink: link }, values.json));
      return 1;
    }
    const result = run.value;
    console.log(values.json ? JSON.stringify({ workflowId: started.workflowId, uiLink: link, ...result }, null, 2) : formatResult(result, link));
    return result.outcome === 'answered' ? 0 : 1;
  });
}

export const askCommand: Command = {
  name: 'ask',
  examples: [
    'npx decodex ask --db shop.sqlite "How many customers are there?"',
    'npx decodex ask --db mysql://reader:secret@localhost:3306/shop --preset decosearch "Which product sells best?"',
    'npx decodex ask --db postgres://reader:secret@localhost:5432/shop "How many orders shipped last week?"',
    'npx decodex ask --db shop --no-worker --json "How many orders in 2024?"   # shop: a connection configured on the worker',
  ],
  usage: `ask --db <sqlite path | mysql://url | postgres://url> [--evidence <text>] ${PIPELINE_USAGE} [--json] [--no-worker] "<question>"`,
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
