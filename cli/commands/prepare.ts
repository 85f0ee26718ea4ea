import { rolesOfStage } from '../../core/prompts/prompt-catalog';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { settingsForRole } from '../../activities/llm/llm-config';
import type { PrepareDatabaseResult } from '../../core/preparation/preparation-types';
import { workflowUiLink, type RuntimeConfig } from '../../core/runtime-config';
import { PREPARATION_TASK_QUEUES } from '../../core/task-queues';
import { loadWorkerLlmConfig } from '../../workers/build-deps';
import { ProgressBar } from '../progress-bar';
import { formatRunFailure, resultOrFailure } from '../run-failure';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { databaseForCommand, withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';

/** The models exploration asks (triage, notes): checked before any server starts. */
const EXPLORATION_ROLES = rolesOfStage('exploration');

async function prepare(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string' },
      docs: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      'no-llm': { type: 'boolean' },
      detach: { type: 'boolean' },
    },
  });
  if (!values.db) throw new UsageError('prepare needs --db <sqlite path | mysql://user:pass@host:port/db | postgres://user:pass@host:port/db>');
  const { database, databasePasswords } = databaseForCommand(config, values.db, values['no-worker'], values.detach);
  const documentation = values.docs ? path.resolve(values.docs) : undefined;
  const useLlm = !values['no-llm'];
  if (useLlm) {
    const llmConfig = loadWorkerLlmConfig(config, process.env);
    for (const role of EXPLORATION_ROLES) settingsForRole(llmConfig, role);
  }

  const detach = values.detach;
  return withClientSession(config, { noWorker: values['no-worker'] || detach, queues: PREPARATION_TASK_QUEUES, databasePasswords }, async (client, session) => {
    const started = await client.startPreparation({ database, documentation, force: values.force, config: { exploration: { useLlm } } });
    const run = { workflowId: started.workflowId, runId: started.runId, what: `the preparation of ${database}`, queues: PREPARATION_TASK_QUEUES };
    if (detach) return session.detach(run, values.json);
    log(`preparing ${database}\n  ${workflowUiLink(config, started.workflowId, started.runId)}`);
    // Ctrl-C stops watching, not the preparation: it resumes where it is, and says so.
    session.watch(run, 'detach');
    return printPreparation(config, client, run, values.json);
  });
}

/** Waits for a preparation with a progress bar and prints its result as `prepare` does; exit code 1 when it failed or its budget ended it. */
export async function printPreparation(config: RuntimeConfig, client: DecodexClient, run: WatchedRun, json: boolean | undefined): Promise<number> {
  const link = workflowUiLink(config, run.workflowId, run.runId);
  const bar = new ProgressBar();
  let finished = false;
  const outcome = client.result<PrepareDatabaseResult>(run.workflowId).finally(() => (finished = true));
  while (!finished) {
    await Promise.race([outcome.catch(() => undefined), sleep(500)]);
    if (!finished) bar.update(await client.progress(run.workflowId).catch(() => ({ step: 'starting', done: 0, total: 1 })));
  }
  const result = await resultOrFailure(outcome);
  // The final state, so even a run shorter than one poll shows a finished bar.
  bar.update(await client.progress(run.workflowId).catch(() => ({ step: 'done', done: 1, total: 1 })));
  bar.finish();
  if (!result.ok) {
    console.log(formatRunFailure(result.error, { workflowId: run.workflowId, uiLink: link }, json));
    return 1;
  }
  console.log(json ? JSON.stringify({ workflowId: run.workflowId, uiLink: link, ...result.value }, null, 2) : formatPreparation(result.value, link));
  return result.value.status === 'budget_exhausted' ? 1 : 0;
}

export function formatPreparation(r: PrepareDatabaseResult, link: string): string {
  const c = r.manifest.counts;
  return [
    `status: ${r.status}${r.budgetMessage ? ` (${r.budgetMessage})` : ''}`,
    `database: ${r.manifest.database} (id ${r.databaseId})`,
    `tables: ${c.tables} (${r.profiledTables} profiled now, ${r.reusedTables} reused), columns: ${c.columns}, rows: ${c.rows}`,
    `values indexed: ${c.valuesIndexed}`,
    `ambiguous pairs: ${c.confirmedPairs} confirmed of ${c.candidatePairs} candidates, notes: ${c.notes}`,
    `llm: ${r.usage.llmCalls} calls, ${r.usage.promptTokens + r.usage.completionTokens} tokens (${r.usage.cacheHits} cached)`,
    ...r.steps.map((s) => `  ${s.step.padEnd(10)} ${(s.elapsedMs / 1000).toFixed(1).padStart(6)} s  ${s.outcome ?? s.summary}`),
    `Web UI: ${link}`,
  ].join('\n');
}

export const prepareCommand: Command = {
  name: 'prepare',
  examples: [
    'npx decodex prepare --db shop.sqlite',
    'npx decodex prepare --db mysql://reader:secret@localhost:3306/shop --docs docs/ --force',
    'npx decodex prepare --db postgres://reader:secret@localhost:5432/shop   # COMMENT ON tables and columns is the documentation',
    'npx decodex prepare --db shop.sqlite --no-llm   # statistics and indices only, no model',
    'npx decodex prepare --db shop --detach   # a decodex worker prepares it; npx decodex follow prepare-<id> waits for it',
  ],
  usage: 'prepare --db <sqlite path | mysql://url | postgres://url> [--docs <folder|file>] [--force] [--no-llm] [--json] [--no-worker] [--detach]',
  run: prepare,
};
