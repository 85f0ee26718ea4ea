import type { SqlRow } from '../sql-value';
import { rowKey } from './row-key';

/**
 * BIRD's EX rule (bird-bench evaluation.py, mini_dev evaluation_ex.py):
 * `set(predicted_res) == set(ground_truth_res)`. Row order is ignored and duplicate rows
 * collapse, but each row is a tuple, so column order and column count matter. Two empty
 * results are equal.
 */
export function birdResultsMatch(predicted: SqlRow[], gold: SqlRow[]): boolean {
  const p = new Set(predicted.map(rowKey));
  const g = new Set(gold.map(rowKey));
  if (p.size !== g.size) return false;
  for (const key of p) if (!g.has(key)) return false;
  return true;
}
