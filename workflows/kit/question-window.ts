import { workflowInfo } from '@temporalio/workflow';
import type { RunBudget } from '../../core/budget';

export interface QuestionWindow<Q extends { index: number }> {
  /** Questions in the job. */
  total: number;
  /** Where to start scanning for unfinished questions. */
  nextIndex: number;
  /** Questions handled at once. */
  concurrency: number;
  /** Questions started in this workflow run before it should continue as new. */
  perRun: number;
  /** The next unfinished questions from `from` on, and where the scan stopped. */
  fetch: (from: number) => Promise<{ questions: Q[]; scannedTo: number }>;
  /**
   * The job's budget: a question starts only when one more paid call fits (its call is reserved
   * while it runs); once refused, no more questions are handed out. `handle` records what it spent.
   * Absent: the job is bounded by its questions' own budgets (a benchmark).
   */
  budget?: RunBudget;
  /** Handles one question; it must not throw (record its own failure). */
  handle: (question: Q) => Promise<void>;
  /** Called when the number of questions in flight changes (a question started or settled). */
  onInFlight?: (inFlight: number) => void;
}

/**
 * The one loop of decodex's long question jobs (benchmarks, rule mining, the decomposition knowledge base):
 * unfinished questions are fetched page by page from the store, at most `concurrency` are in
 * flight, and after `perRun` starts (or when Temporal suggests it) the window drains so the caller
 * can continue as new with `resumeFrom`. Returns `resumeFrom: null` when every question was handed
 * out, and whether the budget refused one.
 */
export async function runQuestionWindow<Q extends { index: number }>(w: QuestionWindow<Q>): Promise<{ resumeFrom: number | null; refused: boolean }> {
  let nextIndex = w.nextIndex;
  const queue: Q[] = [];
  const inFlight = new Map<number, Promise<void>>();
  let started = 0;
  let refused = false;
  const timeToContinue = () => started >= w.perRun || workflowInfo().continueAsNewSuggested;
  for (;;) {
    if (!timeToContinue() && !refused) {
      if (queue.length === 0 && nextIndex < w.total) {
        const page = await w.fetch(nextIndex);
        queue.push(...page.questions);
        nextIndex = page.scannedTo;
        continue;
      }
      while (inFlight.size < w.concurrency && queue.length > 0 && !timeToContinue()) {
        if (w.budget?.refuse(1)) {
          refused = true;
          break;
        }
        const question = queue.shift()!;
        started++;
        const release = w.budget?.reserve(1) ?? (() => {});
        inFlight.set(
          question.index,
          w.handle(question).finally(() => {
            release();
            inFlight.delete(question.index);
            w.onInFlight?.(inFlight.size);
          }),
        );
        w.onInFlight?.(inFlight.size);
      }
    }
    if (inFlight.size === 0) break;
    await Promise.race(inFlight.values());
  }
  const more = queue.length > 0 || nextIndex < w.total;
  return { resumeFrom: more ? (queue.length > 0 ? queue[0].index : nextIndex) : null, refused };
}
