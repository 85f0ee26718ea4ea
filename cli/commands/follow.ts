import { parseArgs } from 'node:util';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RuntimeConfig } from '../../core/runtime-config';
import { ALL_TASK_QUEUES, PREPARATION_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import type { DecodexClient } from '../client';
import type { WatchedRun } from '../detached-run';
import { printAnswer } from './ask';
import { printBenchmark } from './bench';
import { printDecompositionKnowledge, printFewShotIndex } from './build-knowledge';
import { withClientSession } from './client-session';
import { log, UsageError, type Command } from './command';
import { printMining } from './mine-rules';
import { printPreparation } from './prepare';

type Printer = (config: RuntimeConfig, client: DecodexClient, run: WatchedRun, json: boolean | undefined) => Promise<number>;

/** Each workflow a command starts, what it is called, its queues, and how that command waits for and prints it. */
const RUN_KINDS: Record<string, { what: string; queues: TaskQueueName[]; print: Printer }> = {
  answerQuestion: { what: 'the question', queues: ALL_TASK_QUEUES, print: printAnswer },
  prepareDatabase: { what: 'the preparation', queues: PREPARATION_TASK_QUEUES, print: printPreparation },
  mineRules: { what: 'the mining job', queues: ALL_TASK_QUEUES, print: (_, c, r, j) => printMining(c, r, j) },
  runBenchmark: { what: 'the benchmark', queues: ALL_TASK_QUEUES, print: (_, c, r, j) => printBenchmark(c, r, j) },
  buildFewShotIndex: { what: 'the few-shot index job', queues: ['offline'], print: (_, c, r, j) => printFewShotIndex(c, r, j) },
  buildDecompositionKnowledge: {
    what: 'the decomposition knowledge base job',
    queues: ALL_TASK_QUEUES,
    print: (_, c, r, j) => printDecompositionKnowledge(c, r, j),
  },
};

/**
 * `decodex follow <workflowId>`: comes back to a run a command left (`--detach`, Ctrl-C on a long
 * job, a closed terminal) and prints its result as that command would, with the same exit code.
 * It runs a worker in its own process like the command did (unless --no-worker), so a run whose
 * command's worker went away moves on; Ctrl-C stops following and leaves the run as it is.
 */
async function follow(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, 'no-worker': { type: 'boolean' } } });
  const [workflowId, ...extra] = positionals;
  if (!workflowId || extra.length) throw new UsageError('follow needs one workflow id (printed by the command that started the run)');
  return withClientSession(config, { noWorker: values['no-worker'] }, async (client, session) => {
    let description;
    try {
      description = await client.client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      log(`no run ${workflowId} on this Temporal server (namespace ${config.namespace})`);
      return 1;
    }
    const kind = RUN_KINDS[description.type];
    if (!kind) {
      log(`${workflowId} is a ${description.type} run, which decodex does not start`);
      return 1;
    }
    const run: WatchedRun = { workflowId, runId: description.runId, what: `${kind.what} ${workflowId}`, queues: kind.queues };
    if (description.status.name === 'RUNNING') log(`following ${run.what} (${description.status.name.toLowerCase()})`);
    session.watch(run, 'detach');
    return kind.print(config, client, run, values.json);
  });
}

export const followCommand: Command = {
  name: 'follow',
  examples: ['npx decodex follow answer-shop-0b9c...   # the id ask --detach printed', 'npx decodex follow prepare-3f2a... --no-worker --json'],
  usage: 'follow <workflowId> [--json] [--no-worker]   wait for a run started earlier (--detach, Ctrl-C) and print its result',
  run: follow,
};
