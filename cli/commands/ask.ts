import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES } from '../../core/task-queues';
import { runWorkers } from '../../workers/run-workers';
import { DecodexClient } from '../client';
import { formatResult } from '../print-result';
import { SAMPLE_QUESTION, ensureSampleDatabase } from '../sample-database';
import { ensureTemporal } from '../temporal/embedded-server';
import { log, UsageError, type Command } from './command';
import { prepareLlm } from './prepare-llm';

async function ask(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { db: { type: 'string' }, evidence: { type: 'string' }, json: { type: 'boolean' }, 'no-worker': { type: 'boolean' } },
  });
  const question = positionals.join(' ').trim();
  if (!values.db) throw new UsageError('ask needs --db <sqlite path | mysql://user:pass@host:port/db>');
  if (!question) throw new UsageError('ask needs a question, e.g. decodex ask --db shop.sqlite "How many customers are there?"');
  await prepareLlm(config, !values['no-worker'], log);

  // The in-process worker's routine INFO lines would bury the answer; warnings still show.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const endpoint = await ensureTemporal(config, log);
  if (endpoint.backgroundPid) {
    log(`The Temporal dev server keeps running in the background (pid ${endpoint.backgroundPid}) so the Web UI link stays valid; stop it with \`npx decodex server --stop\`.`);
  }
  const workers = values['no-worker'] ? null : await runWorkers(endpoint, config, ALL_TASK_QUEUES);
  const client = await DecodexClient.connect({ ...endpoint, queuePrefix: config.queuePrefix });
  try {
    const started = await client.startQuestion({ question, database: values.db, evidence: values.evidence });
    const link = workflowUiLink(config, started.workflowId, started.runId);
    log(`started ${started.workflowId}\n  ${link}`);
    const result = await started.handle.result();
    console.log(values.json ? JSON.stringify({ workflowId: started.workflowId, uiLink: link, ...result }, null, 2) : formatResult(result, link));
    return result.outcome === 'answered' ? 0 : 1;
  } finally {
    await client.close();
    await workers?.stop();
    await endpoint.stop?.();
  }
}

export const askCommand: Command = {
  name: 'ask',
  usage: 'ask --db <sqlite path | mysql://url> [--evidence <text>] [--json] [--no-worker] "<question>"',
  run: ask,
};

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo                              answer a question over the built-in sample database',
  run: (config, args) => ask(config, ['--db', ensureSampleDatabase(config.home), ...args, SAMPLE_QUESTION]),
};
