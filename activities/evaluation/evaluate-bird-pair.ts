import { birdResultsMatch } from '../../core/evaluation/bird-execution-match';
import type { PairVerdict } from '../../core/evaluation/verdict';
import type { TargetDatabase } from '../database/target-database';
import { executeForEvaluation, failureVerdict } from './execute-for-evaluation';

/**
 * BIRD EX for one pair, in the official order: the prediction runs first, then the gold, and
 * one timeout (30 s officially) covers both; any error or timeout scores 0.
 */
export async function evaluateBirdPair(db: TargetDatabase, predictedSql: string, goldSql: string, timeoutMs: number): Promise<PairVerdict> {
  const predicted = await executeForEvaluation(db, predictedSql, timeoutMs);
  if (!predicted.ok) return failureVerdict(predicted, 'pred');
  const gold = await executeForEvaluation(db, goldSql, timeoutMs - predicted.elapsedMs);
  if (!gold.ok) return failureVerdict(gold, 'gold');
  return {
    verdict: birdResultsMatch(predicted.rows, gold.rows) ? 'correct' : 'wrong',
    predictedMs: predicted.elapsedMs,
    goldMs: gold.elapsedMs,
  };
}
