import { Client, Connection, type WorkflowExecutionInfo } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { RuntimeConfig } from '../core/runtime-config';
import { ALL_TASK_QUEUES, taskQueue, type TaskQueueName } from '../core/task-queues';
import { configuredTemporal } from './temporal/connection-options';
import { embeddedServerPids } from './temporal/running-server';

const { TaskQueueType, HistoryEventFilterType } = temporal.api.enums.v1;

export interface QueueStatus {
  queue: string;
  /** Worker identities (pid@host) that polled the queue recently, with when they last did. */
  pollers: { identity: string; lastAccess: string | null }[];
}

export interface RunSummary {
  workflowId: string;
  runId: string;
  type: string;
  status: string;
  startTime: string;
  closeTime: string | null;
  /** For an ended run: why it failed (an unanswered question's outcome and cause). */
  failure?: string;
}

export interface OperatorStatus {
  address: string;
  namespace: string;
  queuePrefix: string;
  /** The embedded server's processes of this home (empty with TEMPORAL_ADDRESS, or none running). */
  embeddedPids: number[];
  /** Null when the server answered; else why not. */
  unreachable: string | null;
  queues: QueueStatus[];
  running: RunSummary[];
  failures: RunSummary[];
}

/** How many running runs and recent failures are listed. */
const LIST_LIMIT = 20;
const FAILURES_SHOWN = 5;

/**
 * What `decodex status` reports, read from the Temporal server the CLI would use (never started
 * here): whether it answers, which workers poll this deployment's task queues (its prefix), the
 * runs on those queues that are running, and the last ones that failed (an unanswered question is
 * a failed run, its outcome the failure's message).
 */
export async function operatorStatus(config: RuntimeConfig): Promise<OperatorStatus> {
  const configured = configuredTemporal(config);
  const endpoint = configured ?? { address: `127.0.0.1:${config.embeddedPort}`, namespace: config.namespace };
  const base = {
    address: endpoint.address,
    namespace: endpoint.namespace,
    queuePrefix: config.queuePrefix,
    embeddedPids: configured ? [] : (embeddedServerPids(config) ?? []),
  };
  let connection: Connection;
  try {
    // connect() asks the server for its system info: it fails unless the server answers.
    connection = await Connection.connect({ ...endpoint, connectTimeout: 3_000 });
  } catch (err) {
    return { ...base, unreachable: (err as Error).message, queues: [], running: [], failures: [] };
  }
  try {
    const client = new Client({ connection, namespace: endpoint.namespace });
    const queues = await Promise.all(ALL_TASK_QUEUES.map((q) => queueStatus(client, q, config.queuePrefix)));
    const ours = new Set(ALL_TASK_QUEUES.map((q) => taskQueue(q, config.queuePrefix)));
    const running = await listRuns(client, `ExecutionStatus = 'Running'`, ours, LIST_LIMIT);
    const ended = await listRuns(client, `ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut' OR ExecutionStatus = 'Terminated'`, ours, LIST_LIMIT);
    const failures = ended.sort((a, b) => (b.closeTime ?? '').localeCompare(a.closeTime ?? '')).slice(0, FAILURES_SHOWN);
    for (const run of failures) run.failure = await failureOf(client, run).catch(() => undefined);
    return { ...base, unreachable: null, queues, running, failures };
  } finally {
    await connection.close();
  }
}

/** Pollers of a queue: workflow pollers on online and offline (activity pollers too), activity pollers on llm (no workflows there). */
async function queueStatus(client: Client, queue: TaskQueueName, prefix: string): Promise<QueueStatus> {
  const name = taskQueue(queue, prefix);
  const types = queue === 'llm' ? [TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY] : [TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY];
  const byIdentity = new Map<string, string | null>();
  for (const taskQueueType of types) {
    const response = await client.workflowService.describeTaskQueue({ namespace: client.options.namespace, taskQueue: { name }, taskQueueType });
    for (const p of response.pollers ?? []) {
      const seconds = p.lastAccessTime?.seconds;
      const at = seconds === undefined || seconds === null ? null : new Date(Number(seconds) * 1000).toISOString();
      const identity = p.identity ?? '(unnamed)';
      if (!byIdentity.has(identity) || (at && at > (byIdentity.get(identity) ?? ''))) byIdentity.set(identity, at);
    }
  }
  return { queue: name, pollers: [...byIdentity].map(([identity, lastAccess]) => ({ identity, lastAccess })) };
}

/** Runs matching `query` on this deployment's queues (a prefix's runs only), at most `limit`. */
async function listRuns(client: Client, query: string, queues: Set<string>, limit: number): Promise<RunSummary[]> {
  const runs: RunSummary[] = [];
  // The server lists newest first; runs of other deployments on the same server are skipped.
  let seen = 0;
  for await (const info of client.workflow.list({ query })) {
    if (++seen > 500 || runs.length >= limit) break;
    if (queues.has(info.taskQueue)) runs.push(summary(info));
  }
  return runs;
}

function summary(info: WorkflowExecutionInfo): RunSummary {
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    type: info.type,
    status: info.status.name,
    startTime: info.startTime.toISOString(),
    closeTime: info.closeTime?.toISOString() ?? null,
  };
}

/** The close event's reason: a failure's message (its innermost cause), a termination's reason, or a timeout. */
async function failureOf(client: Client, run: RunSummary): Promise<string | undefined> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId: run.workflowId, runId: run.runId },
    historyEventFilterType: HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
  });
  const event = history?.events?.[0];
  if (event?.workflowExecutionTerminatedEventAttributes) return `terminated: ${event.workflowExecutionTerminatedEventAttributes.reason || 'no reason given'}`;
  if (event?.workflowExecutionTimedOutEventAttributes) return 'timed out';
  let failure = event?.workflowExecutionFailedEventAttributes?.failure;
  while (failure?.cause) failure = failure.cause;
  return failure?.message ?? undefined;
}
