import { DefaultLogger, type LogLevel, type LogMetadata } from '@temporalio/worker';

/**
 * Temporal SDK warnings that describe decodex working as designed, not a problem: the `llm`
 * queue's worker runs activities only, so the SDK's "no workflows" notice would greet every
 * user of `ask`, `prepare` and `worker` before their answer.
 */
const EXPECTED_NOTICES = new Set(['No workflows registered, not polling for workflow tasks']);

/** The SDK's logger at `level`, minus the notices above; every other line is printed as before. */
export class DecodexTemporalLogger extends DefaultLogger {
  constructor(level: LogLevel) {
    super(level);
  }

  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (EXPECTED_NOTICES.has(message)) return;
    super.log(level, message, meta);
  }
}
