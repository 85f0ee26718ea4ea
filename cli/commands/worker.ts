import { parseArgs } from 'node:util';
import { Runtime } from '@temporalio/worker';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../../core/task-queues';
import { runWorkers } from '../../workers/run-workers';
import { configuredTemporal } from '../temporal/connection-options';
import { DecodexTemporalLogger } from '../../workers/temporal-logger';
import { log, untilSignal, UsageError, type Command } from './command';
import { prepareLlm } from './prepare-llm';

export const workerCommand: Command = {
  name: 'worker',
  examples: ['npx decodex worker', 'npx decodex worker --queue offline', 'DECODEX_QUEUE_PREFIX=team-a. npx decodex worker --queue online --queue llm'],
  usage: 'worker [--queue online|offline|llm]   run workers (all queues by default)',
  async run(config, args) {
    const { values } = parseArgs({ args, options: { queue: { type: 'string', multiple: true } } });
    const queues = (values.queue ?? ALL_TASK_QUEUES) as TaskQueueName[];
    for (const q of queues) {
      if (!ALL_TASK_QUEUES.includes(q)) throw new UsageError(`unknown queue "${q}" (one of ${ALL_TASK_QUEUES.join(', ')})`);
    }
    // The SDK's usual INFO lines, without its notice that the llm worker hosts no workflows.
    Runtime.install({ logger: new DecodexTemporalLogger('INFO') });
    if (queues.includes('llm')) await prepareLlm(config, true, log);
    const endpoint = configuredTemporal(config) ?? { address: `127.0.0.1:${config.embeddedPort}`, namespace: config.namespace };
    const running = await runWorkers(endpoint, config, queues);
    log(`workers running on ${endpoint.address} (namespace ${endpoint.namespace}) for queues: ${queues.join(', ')} (Ctrl-C to stop)`);
    try {
      // A worker that dies (WorkerStopped) ends the command with exit 1, so a supervisor starts it again.
      await Promise.race([untilSignal(), running.stoppedEarly]);
    } finally {
      await running.stop();
    }
    return 0;
  },
};
