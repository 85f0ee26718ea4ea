import { timeRatio } from '../../core/evaluation/efficiency-scores';
import type { TargetDatabase } from '../database/target-database';
import { executeForEvaluation } from './execute-for-evaluation';

/**
 * VES timing of a correct pair: `repetitions` times the prediction then the gold, each giving
 * gold_time / predicted_time. As in evaluation_ves.py the whole loop has `timeoutMs` per
 * repetition, and any failure or timeout makes the question's ratio 0.
 */
export async function timePair(
  db: TargetDatabase,
  predictedSql: string,
  goldSql: string,
  repetitions: number,
  timeoutMs: number,
): Promise<{ timeRatio: number; ratios: number[]; problem?: string }> {
  const deadline = Date.now() + timeoutMs * repetitions;
  const ratios: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const predicted = await executeForEvaluation(db, predictedSql, deadline - Date.now());
    if (!predicted.ok) return { timeRatio: 0, ratios, problem: `predicted: ${predicted.message}` };
    const gold = await executeForEvaluation(db, goldSql, deadline - Date.now());
    if (!gold.ok) return { timeRatio: 0, ratios, problem: `gold: ${gold.message}` };
    // Timer resolution can give 0 for a trivial query; the smallest measurable time stands in.
    ratios.push(Math.max(gold.elapsedMs, 1e-3) / Math.max(predicted.elapsedMs, 1e-3));
  }
  return { timeRatio: timeRatio(ratios), ratios };
}
