import { ApplicationFailure } from '@temporalio/common';
import { DefaultLogger, type LogLevel, type LogMetadata } from '@temporalio/worker';

/**
 * Temporal SDK warnings that describe decodex working as designed, not a problem: the `llm`
 * queue's worker runs activities only, so the SDK's "no workflows" notice would greet every
 * user of `ask`, `prepare` and `worker` before their answer.
 */
const EXPECTED_NOTICES = new Set(['No workflows registered, not polling for workflow tasks']);

/** The SDK's lines about a failed activity or workflow: they carry the error, stack included. */
const FAILURE_LINES = new Set(['Activity failed', 'Workflow failed', 'Activity function failed', 'Workflow task failed']);

/**
 * The SDK's logger at `level`, minus the notices above. A failure that decodex raised on purpose
 * (an ApplicationFailure: a missing database, a refused account) is an answer, not a crash: its
 * stack trace says nothing to a user. With `failuresReported` (ask, prepare, bench: the command
 * prints the cause itself) its line is dropped; otherwise (`decodex worker`) it is one line
 * without the stack. Any other error (a bug) is printed as before, stack and all.
 */
export class DecodexTemporalLogger extends DefaultLogger {
  constructor(
    level: LogLevel,
    private readonly failuresReported = false,
  ) {
    super(level);
  }

  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (EXPECTED_NOTICES.has(message)) return;
    const deliberate = FAILURE_LINES.has(message) ? deliberateFailure(meta?.error) : null;
    if (deliberate) {
      if (this.failuresReported) return;
      const where = [meta?.workflowType ?? meta?.activityType, meta?.workflowId].filter(Boolean).join(' in ');
      return super.log(level, `${message}${where ? ` (${where})` : ''}: ${deliberate.type ?? 'failure'}: ${deliberate.message}`);
    }
    super.log(level, message, meta);
  }
}

/**
 * The ApplicationFailure in `error`'s cause chain, if there is one. Not only by `instanceof`:
 * errors logged for a workflow are copied out of the workflow sandbox without their prototypes
 * (name 'Error'), and only their stack still starts with the class name.
 */
function deliberateFailure(error: unknown): Pick<ApplicationFailure, 'type' | 'message'> | null {
  let e = error as { name?: unknown; stack?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if (e instanceof ApplicationFailure || e.name === 'ApplicationFailure' || /^ApplicationFailure\b/.test(String(e.stack))) return e as ApplicationFailure;
    e = e.cause as typeof e;
  }
  return null;
}
