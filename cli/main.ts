import { parseArgs } from 'node:util';
import { settingsForRole } from '../activities/llm/llm-config';
import { resolveRuntimeConfig, workflowUiLink, type RuntimeConfig } from '../core/runtime-config';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../core/task-queues';
import { loadWorkerLlmConfig } from '../workers/build-deps';
import { runWorkers } from '../workers/run-workers';
import { DecodexClient } from './client';
import { formatResult } from './print-result';
import { SAMPLE_QUESTION, ensureSampleDatabase } from './sample-database';
import { ensureTemporal, startEmbeddedServer, type TemporalEndpoint } from './temporal/embedded-server';

const USAGE = `decodex: durable text-to-SQL on Temporal

Usage:
  decodex demo                              answer a question over the built-in sample database
  decodex ask --db <sqlite path | mysql://url> [--evidence <text>] [--json] [--no-worker] "<question>"
  decodex server                            run the embedded Temporal dev server (Web UI on :8233)
  decodex worker [--queue online|offline|llm]   run workers (all queues by default)

Environment: see README.md (DECODEX_LLM_*, TEMPORAL_ADDRESS, DECODEX_HOME, ...).`;

const log = (line: string) => process.stderr.write(line + '\n');

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = resolveRuntimeConfig(process.env, process.cwd());
  switch (command) {
    case 'demo':
      return ask(config, ['--db', ensureSampleDatabase(config.home), ...rest, SAMPLE_QUESTION]);
    case 'ask':
      return ask(config, rest);
    case 'server':
      return server(config);
    case 'worker':
      return worker(config, rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command ? 0 : 2;
    default:
      log(`unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

/** Fails fast, before any server starts, when no model is configured. */
function checkLlmConfigured(config: RuntimeConfig): void {
  settingsForRole(loadWorkerLlmConfig(config, process.env), 'generator');
}

async function ask(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { db: { type: 'string' }, evidence: { type: 'string' }, json: { type: 'boolean' }, 'no-worker': { type: 'boolean' } },
  });
  const question = positionals.join(' ').trim();
  if (!values.db) throw new UsageError('ask needs --db <sqlite path | mysql://user:pass@host:port/db>');
  if (!question) throw new UsageError('ask needs a question, e.g. decodex ask --db shop.sqlite "How many customers are there?"');
  checkLlmConfigured(config);

  const endpoint = await ensureTemporal(config, log);
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

async function server(config: RuntimeConfig): Promise<number> {
  if (config.temporalAddress) throw new UsageError(`TEMPORAL_ADDRESS=${config.temporalAddress} is set: decodex uses that server, there is nothing to start`);
  const endpoint = await startEmbeddedServer(config, log);
  log('Press Ctrl-C to stop.');
  await untilSignal();
  await endpoint.stop?.();
  return 0;
}

async function worker(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { queue: { type: 'string', multiple: true } } });
  const queues = (values.queue ?? ALL_TASK_QUEUES) as TaskQueueName[];
  for (const q of queues) if (!ALL_TASK_QUEUES.includes(q)) throw new UsageError(`unknown queue "${q}" (one of ${ALL_TASK_QUEUES.join(', ')})`);
  const endpoint: TemporalEndpoint = config.temporalAddress
    ? { address: config.temporalAddress, namespace: config.namespace }
    : { address: `127.0.0.1:${config.embeddedPort}`, namespace: config.namespace };
  const running = await runWorkers(endpoint, config, queues);
  log(`workers running on ${endpoint.address} for queues: ${queues.join(', ')} (Ctrl-C to stop)`);
  await Promise.race([untilSignal(), running.done]);
  await running.stop();
  return 0;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : `decodex: ${(err as Error).message ?? err}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
