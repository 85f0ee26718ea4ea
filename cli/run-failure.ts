import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/common';
import type { RunError } from '../core/run-trace';
import { escapeForTerminal } from './terminal-text';

/**
 * Why a workflow run failed, in the user's terms: the innermost cause under the SDK's wrappers
 * ("Workflow execution failed" → "Activity task failed" → the activity's own message), with its
 * type (an ApplicationFailure's type, or the failure class). Null when `err` is not a failed run.
 */
export function runFailure(err: unknown): RunError | null {
  if (!(err instanceof WorkflowFailedError)) return null;
  let failure: Error | undefined = err.cause ?? err;
  while ((failure instanceof ActivityFailure || failure instanceof ChildWorkflowFailure || failure instanceof WorkflowFailedError) && failure.cause) {
    failure = failure.cause;
  }
  if (failure instanceof ApplicationFailure) return { kind: failure.type ?? 'ApplicationFailure', message: failure.message };
  if (failure instanceof TimeoutFailure) return { kind: 'timeout', message: `${failure.message} (${failure.timeoutType})` };
  return { kind: failure?.name ?? 'failure', message: failure?.message || err.message };
}

/** A run's result, or the cause it failed with (anything else is thrown on). */
export async function resultOrFailure<T>(result: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: RunError }> {
  try {
    return { ok: true, value: await result };
  } catch (err) {
    const error = runFailure(err);
    if (!error) throw err;
    return { ok: false, error };
  }
}

/** What `ask` and `prepare` print for a failed run: the cause, in plain text or as JSON on stdout. */
export function formatRunFailure(error: RunError, ids: { workflowId: string; uiLink: string }, json: boolean | undefined): string {
  if (json) return JSON.stringify({ ...ids, outcome: 'failed', error }, null, 2);
  return escapeForTerminal(`outcome: failed (${error.kind}: ${error.message})\nWeb UI: ${ids.uiLink}`, { keepNewlines: true });
}
