import { spiderResultsMatch } from '../../core/evaluation/spider-execution-match';
import { spiderComparablePair } from '../../core/evaluation/spider-sql-normalization';
import type { PairVerdict } from '../../core/evaluation/verdict';
import type { TargetDatabase } from '../database/target-database';
import { executeForEvaluation, failureVerdict } from './execute-for-evaluation';

/**
 * Spider EX for one pair (test-suite-sql-eval exec_eval.py `eval_exec_match`, without value
 * plugging, as by default): both queries rewritten as the script does, then on every database
 * variant the gold runs, then the prediction; the prediction must match on all of them. The
 * official script has no effective timeout; here each query gets `timeoutMs`.
 */
export async function evaluateSpiderPair(
  variants: TargetDatabase[],
  predictedSql: string,
  goldSql: string,
  options: { timeoutMs: number; keepDistinct?: boolean },
): Promise<PairVerdict> {
  const pair = spiderComparablePair(predictedSql, goldSql, options.keepDistinct);
  let first: PairVerdict | null = null;
  for (const db of variants) {
    const gold = await executeForEvaluation(db, pair.gold, options.timeoutMs);
    if (!gold.ok) return failureVerdict(gold, 'gold');
    const predicted = await executeForEvaluation(db, pair.predicted, options.timeoutMs);
    if (!predicted.ok) return failureVerdict(predicted, 'pred');
    if (!spiderResultsMatch(gold, predicted, pair.orderMatters)) {
      return {
        verdict: 'wrong',
        ...(variants.length > 1 ? { detail: `differs on ${db.name}` } : {}),
        predictedMs: predicted.elapsedMs,
        goldMs: gold.elapsedMs,
      };
    }
    first ??= { verdict: 'correct', predictedMs: predicted.elapsedMs, goldMs: gold.elapsedMs };
  }
  return first ?? { verdict: 'gold_error', detail: 'no database to evaluate on' };
}
