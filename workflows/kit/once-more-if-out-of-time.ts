import { patched } from '@temporalio/workflow';
import type { RunError } from '../../core/run-trace';

/** Patch marker: questions of offline jobs started before this rule replay without the second run. */
export const ONCE_MORE_IF_OUT_OF_TIME = 'offline-question-once-more-if-out-of-time';

/** Whether a run ended because its time budget ran out (the one budget a pause spends). */
export function outOfTime(stoppedBy: RunError | undefined): boolean {
  return stoppedBy?.kind === 'time_budget';
}

/** Whether this run may end out of time and leave the question to a second run (the first run, under the patch). */
export function mayRunOnceMore(again: boolean): boolean {
  return !again && patched(ONCE_MORE_IF_OUT_OF_TIME);
}

/**
 * One training question of an offline job (rule mining, the decomposition knowledge base), run
 * once more if its time budget ran out. Time is the one budget a paused worker or a busy machine
 * spends while the question does nothing: a job stopped with Ctrl-C and resumed hours later finds
 * every question it had in flight out of time, and recording those as answered would lose them for
 * good. The second run (`run(first)`, under other workflow ids) replays from the LLM cache every
 * call the first one got an answer to, so it spends its own time budget on what the first did not
 * finish; if it runs out of time too, that is the question's answer. Calls, tokens, dollars and
 * repairs are not retried: the same run would spend them the same way. Returns the answer and
 * every run, whose spending all counts.
 */
export async function onceMoreIfOutOfTime<T>(
  run: (earlier: T | undefined) => Promise<T>,
  ranOutOfTime: (result: T) => boolean,
  noteSecondRun: () => void,
): Promise<{ answer: T; runs: T[] }> {
  const first = await run(undefined);
  if (!ranOutOfTime(first) || !patched(ONCE_MORE_IF_OUT_OF_TIME)) return { answer: first, runs: [first] };
  noteSecondRun();
  const second = await run(first);
  return { answer: second, runs: [first, second] };
}
