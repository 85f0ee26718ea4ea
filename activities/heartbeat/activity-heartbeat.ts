import { asyncLocalStorage, type Context } from '@temporalio/activity';

/**
 * Heartbeats for the preparation activities. Inside a worker they tell Temporal the activity
 * is alive and record how far it got; a retry after a crash reads that back (`resumeDetails`)
 * and continues from there. Outside a worker (benchmarks and unit tests call the functions
 * directly) there is no activity context: heartbeats are dropped and nothing is resumed.
 *
 * `heartbeat` only records the latest progress; it is sent by `keepAlive`'s timer, and at once
 * when at least a second has passed since the last send. Short activities (most tables) then
 * cost no heartbeat RPC at all, and a long one sends about one per second at most — while a
 * crash loses at most a second of progress.
 */
interface Beat {
  details: unknown;
  lastSentAt: number;
}

const beats = new WeakMap<Context, Beat>();
const SEND_INTERVAL_MS = 1_000;

export function heartbeat(details: unknown): void {
  const context = asyncLocalStorage.getStore();
  if (!context) return;
  const beat = beats.get(context) ?? { details, lastSentAt: Date.now() };
  beat.details = details;
  beats.set(context, beat);
  if (Date.now() - beat.lastSentAt >= SEND_INTERVAL_MS) send(context, beat);
}

export function resumeDetails<T>(): T | undefined {
  return asyncLocalStorage.getStore()?.info.heartbeatDetails as T | undefined;
}

/**
 * Runs an activity body while re-sending its latest progress every third of the heartbeat
 * timeout (at least once a second), so one long query (bounded by its own timeout) never looks
 * like a dead worker, while a worker that really dies is noticed within the heartbeat timeout.
 * Starts from the previous attempt's details, so a keep-alive sent before the first new
 * progress does not erase them.
 */
export async function keepAlive<T>(run: () => Promise<T>): Promise<T> {
  const context = asyncLocalStorage.getStore();
  const timeoutMs = context?.info.heartbeatTimeoutMs;
  if (!context || !timeoutMs) return run();
  const beat: Beat = { details: context.info.heartbeatDetails, lastSentAt: Date.now() };
  beats.set(context, beat);
  const timer = setInterval(() => send(context, beat), Math.max(SEND_INTERVAL_MS, Math.min(timeoutMs / 3, 10_000)));
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

/**
 * The same activities, each run under keepAlive: an activity with no progress of its own to
 * record (a query, a model call) still heartbeats while it waits, so when its worker dies the
 * workflow's heartbeat timeout, seconds, retries it, not the attempt's start-to-close timeout.
 */
export function keptAlive<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, run] of Object.entries(activities)) wrapped[name] = (...args) => keepAlive(() => run(...args));
  return wrapped as T;
}

function send(context: Context, beat: Beat): void {
  beat.lastSentAt = Date.now();
  context.heartbeat(beat.details);
}
