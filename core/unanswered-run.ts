import { ApplicationFailure } from '@temporalio/common';
import type { AnswerQuestionResult } from './answer-question-types';

/**
 * How a question run that ends without an answer (any outcome but `answered`) shows in the Web
 * UI's list: as a Failed run, red among the green Completed ones, its message the outcome and the
 * cause. The whole result travels in the failure's details, so every caller still gets it back
 * (`awaitAnswer`): an unanswered question is an answer about the question, not a lost run.
 */
export const UNANSWERED_FAILURE_TYPE = 'Unanswered';

/** The failure an unanswered run ends with (never retried: the same run would end the same way). */
export function unansweredFailure(result: AnswerQuestionResult): ApplicationFailure {
  return ApplicationFailure.create({
    type: UNANSWERED_FAILURE_TYPE,
    message: `${result.outcome}${result.error ? `: ${result.error.message}` : ''}`,
    nonRetryable: true,
    details: [result],
  });
}

/** The result an unanswered run carried in its failure, found through the client's or a parent workflow's wrapping. */
export function resultOfUnanswered(err: unknown): AnswerQuestionResult | undefined {
  for (let cause = err as { cause?: unknown } | undefined; cause; cause = cause.cause as typeof cause) {
    if (cause instanceof ApplicationFailure && cause.type === UNANSWERED_FAILURE_TYPE) return cause.details?.[0] as AnswerQuestionResult | undefined;
  }
  return undefined;
}

/** A question run's result, answered or not: what `handle.result()` or `executeChild` gives, with an unanswered run's failure unwrapped. */
export async function awaitAnswer(run: Promise<AnswerQuestionResult>): Promise<AnswerQuestionResult> {
  try {
    return await run;
  } catch (err) {
    const result = resultOfUnanswered(err);
    if (result) return result;
    throw err;
  }
}
