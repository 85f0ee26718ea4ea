import { sqlValueKey, type SqlRow } from '../sql-value';
import { rowKey } from './row-key';
import { passesQuickRejection, type TypedRows } from './spider-quick-rejection';

/**
 * Spider's EX rule (test-suite-sql-eval exec_eval.py `result_eq`): the prediction matches when
 * both results are empty, or they have the same number of rows and columns and some
 * permutation of the prediction's columns makes its rows equal to the gold rows, as a bag
 * (duplicates count) or, when `orderMatters`, as a list.
 *
 * The official script first rejects quickly by comparing rows whose values were sorted by
 * `str(x) + str(type(x))`; that is replayed exactly, with the INTEGER/REAL storage class the
 * executor kept, since it rejects some int-vs-float pairs the permutation test would accept
 * (see spider-quick-rejection.ts). Candidate columns are narrowed by comparing each column's
 * bag of values, which every valid permutation must preserve, so the search gives the same
 * answer as enumerating all permutations.
 */
export function spiderResultsMatch(goldResult: TypedRows, predictedResult: TypedRows, orderMatters: boolean): boolean {
  const gold = goldResult.rows;
  const predicted = predictedResult.rows;
  if (gold.length === 0 && predicted.length === 0) return true;
  if (gold.length !== predicted.length) return false;
  const width = gold[0].length;
  if (predicted[0].length !== width) return false;
  if (!passesQuickRejection(goldResult, predictedResult, orderMatters)) return false;

  const goldColumns = columnBags(gold, width);
  const predictedColumns = columnBags(predicted, width);
  const candidates = goldColumns.map((bag) => predictedColumns.flatMap((other, j) => (other === bag ? [j] : [])));
  if (candidates.some((c) => c.length === 0)) return false;

  const goldRows = orderMatters ? gold.map(rowKey) : sortedKeys(gold.map(rowKey));
  const permutation: number[] = [];
  const used = new Set<number>();

  const matches = (): boolean => {
    const permuted = predicted.map((row) => rowKey(permutation.map((j) => row[j])));
    const keys = orderMatters ? permuted : sortedKeys(permuted);
    return keys.every((k, i) => k === goldRows[i]);
  };
  const search = (column: number): boolean => {
    if (column === width) return matches();
    for (const j of candidates[column]) {
      if (used.has(j)) continue;
      used.add(j);
      permutation.push(j);
      if (search(column + 1)) return true;
      permutation.pop();
      used.delete(j);
    }
    return false;
  };
  return search(0);
}

/** Each column's values as a sorted bag of value keys, one string per column. */
function columnBags(rows: SqlRow[], width: number): string[] {
  const bags: string[] = [];
  for (let c = 0; c < width; c++) bags.push(JSON.stringify(sortedKeys(rows.map((r) => sqlValueKey(r[c])))));
  return bags;
}

function sortedKeys(keys: string[]): string[] {
  return [...keys].sort();
}
