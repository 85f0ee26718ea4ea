import { asyncLocalStorage } from '@temporalio/activity';
import { toActivityFailure } from './errors';
import type { LlmCallRequest, LlmCallResult, LlmService } from './llm-service';

/** The `callLlm` activity's input and output (the service's request and result, unchanged). */
export type CallLlmInput = LlmCallRequest;
export type CallLlmOutput = LlmCallResult;

/**
 * The LLM activities, registered on the `llm` task queue. Temporal owns retries: an LlmError
 * leaves as an ApplicationFailure whose retryability follows its kind (429 / 5xx / timeout /
 * connection retry; auth, bad request, malformed and config errors do not).
 */
export function createLlmActivities({ service }: { service: LlmService }) {
  return {
    async callLlm(input: CallLlmInput): Promise<CallLlmOutput> {
      try {
        const result = await service.call(input);
        // Inside a worker the record also lands in the activity log; outside one (unit tests,
        // scripts) there is no activity context and nothing to log to.
        asyncLocalStorage.getStore()?.log.info('llm call', { ...result.record });
        return result;
      } catch (err) {
        throw toActivityFailure(err);
      }
    },
  };
}

export type LlmActivities = ReturnType<typeof createLlmActivities>;
