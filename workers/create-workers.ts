import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { taskQueue, type TaskQueueName } from '../core/task-queues';
import { bundleWorkflows } from './bundle-workflows';

/** Concurrent LLM calls of one worker when nothing else is said (DECODEX_LLM_CONCURRENCY). */
export const DEFAULT_LLM_CONCURRENCY = 8;
/** At most this long between two heartbeats sent of a long activity (see activity-heartbeat.ts keepAlive). */
const HEARTBEAT_THROTTLE = '3s';

export interface WorkerSetup {
  connection: NativeConnection;
  namespace: string;
  queues: TaskQueueName[];
  /** Isolates this set of queues on a shared server (see core/task-queues.ts). */
  queuePrefix?: string;
  deps: ActivityDeps;
  /** A prebuilt bundle (tests build one per run); otherwise workflows are bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Concurrent LLM calls on this worker: the one knob that bounds model load. */
  llmConcurrency?: number;
  /** Concurrent activities of the online and offline workers (see worker-sizing.ts); the SDK's default when unset. */
  onlineConcurrency?: number;
  offlineConcurrency?: number;
}

/** One Worker per task queue, each with the activities of that queue. */
export async function createWorkers(setup: WorkerSetup): Promise<Worker[]> {
  const activities = createActivities(setup.deps);
  // Workflows are bundled once per process and shared by the online and offline workers.
  const hostsWorkflows = setup.queues.some((q) => q !== 'llm');
  const workflowSource = { workflowBundle: setup.workflowBundle ?? (hostsWorkflows ? await bundleWorkflows() : undefined) };
  const perQueue: Record<TaskQueueName, Partial<WorkerOptions>> = {
    // Question workflows and their database activities.
    online: { ...workflowSource, activities: activities.online, maxConcurrentActivityTaskExecutions: setup.onlineConcurrency },
    // Long preparation jobs: their own workflows, so they never queue behind questions.
    offline: { ...workflowSource, activities: activities.offline, maxConcurrentActivityTaskExecutions: setup.offlineConcurrency },
    // Model calls only; no workflows.
    llm: { activities: activities.llm, maxConcurrentActivityTaskExecutions: setup.llmConcurrency ?? DEFAULT_LLM_CONCURRENCY },
  };
  return Promise.all(
    setup.queues.map((queue) =>
      Worker.create({
        connection: setup.connection,
        namespace: setup.namespace,
        taskQueue: taskQueue(queue, setup.queuePrefix),
        // The SDK sends heartbeats at most every 0.8 heartbeat timeouts, which leaves a busy
        // worker 2 s of a 10 s timeout before a live activity is declared dead and run again
        // (a paid model call repeated). keepAlive beats every few seconds: let them through.
        maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
        ...perQueue[queue],
      }),
    ),
  );
}
