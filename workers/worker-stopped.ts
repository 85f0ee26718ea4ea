/**
 * A worker of this process that ended without being asked to: the SDK fails a worker whose polls
 * the server refuses for about a minute (a namespace it no longer knows, a revoked API key), and
 * a command waiting for a run its own worker serves would then wait for ever, the run standing
 * still on the server with nobody polling its queue.
 */
export class WorkerStopped extends Error {
  constructor(
    readonly taskQueue: string,
    readonly reason: unknown,
  ) {
    super(
      `this process's worker for task queue ${taskQueue} stopped (${reason instanceof Error ? reason.message : 'it ended on its own'}); ` +
        'runs it was serving stay on the server and go on once a worker polls that queue again (`npx decodex worker`)',
    );
    this.name = 'WorkerStopped';
  }
}

/**
 * Rejects with WorkerStopped as soon as one of `runs` (each worker's `run()`, in `taskQueues`'
 * order) ends while `stopping()` is false; never settles otherwise. A worker ended by the
 * process's own shutdown is no failure.
 */
export function firstUnaskedStop(runs: Promise<unknown>[], taskQueues: string[], stopping: () => boolean): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    runs.forEach((run, i) => {
      const ended = (reason: unknown) => {
        if (!stopping()) reject(new WorkerStopped(taskQueues[i], reason));
      };
      run.then(() => ended(undefined), ended);
    });
  });
  // A caller that stopped watching (its work ended first) must not see an unhandled rejection.
  stopped.catch(() => {});
  return stopped;
}
