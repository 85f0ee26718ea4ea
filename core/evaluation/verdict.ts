/**
 * What evaluating one question found. Only `correct` scores; everything else scores 0, as in
 * the official scripts, and `not_executable` questions (database missing) are kept out of the
 * executable-question count instead.
 */
export type Verdict =
  | 'correct'
  /** Both ran; the results differ under the evaluator's rule. */
  | 'wrong'
  /** The run produced no SQL (LLM error, budget, database unavailable). */
  | 'no_prediction'
  | 'pred_error'
  | 'pred_timeout'
  | 'gold_error'
  | 'gold_timeout'
  /** A result too large to compare whole. */
  | 'too_large'
  /** The evaluation itself failed (e.g. a database that exists but cannot be read). */
  | 'evaluation_error'
  | 'not_executable';

export const VERDICTS: Verdict[] = [
  'correct',
  'wrong',
  'no_prediction',
  'pred_error',
  'pred_timeout',
  'gold_error',
  'gold_timeout',
  'too_large',
  'evaluation_error',
  'not_executable',
];

export interface PairVerdict {
  verdict: Verdict;
  /** The error or timeout message, when there is one. */
  detail?: string;
  /** Per-query execution times of the (first) comparison, for the report. */
  predictedMs?: number;
  goldMs?: number;
}
