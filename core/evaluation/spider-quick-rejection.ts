import type { CellPosition, SqlRow } from '../sql-value';
import { pythonStrAndType } from './python-str';
import { rowKey } from './row-key';

/** A result as the evaluator receives it: the rows and which whole numbers SQLite stored as REAL. */
export interface TypedRows {
  rows: SqlRow[];
  integralReals?: CellPosition[];
}

/**
 * test-suite-sql-eval's `quick_rej`, replayed exactly: each row's values are sorted by
 * `str(x) + str(type(x))`, then the rows compare as
 * Python tuples, as lists when order matters and as sets otherwise. It is meant as a necessary
 * condition of a match, but it is not one for equal values of different types: 1 sorts after
 * 1001 ('<' > '0') while 1.0 sorts before it ('.' < '0'), so (1, 1001) and (1.0, 1001) are
 * rejected although 1 == 1.0. The official verdict includes that rejection, so this does too.
 * Returns true when the pair passes (is not rejected).
 */
export function passesQuickRejection(gold: TypedRows, predicted: TypedRows, orderMatters: boolean): boolean {
  const g = unorderedRowKeys(gold);
  const p = unorderedRowKeys(predicted);
  if (orderMatters) return g.length === p.length && g.every((k, i) => k === p[i]);
  const gs = new Set(g);
  const ps = new Set(p);
  return gs.size === ps.size && [...gs].every((k) => ps.has(k));
}

/** `unorder_row` of every row, as Python-equality keys. */
function unorderedRowKeys(result: TypedRows): string[] {
  const reals = new Set((result.integralReals ?? []).map(([r, c]) => `${r}:${c}`));
  return result.rows.map((row, r) => {
    const sorted = row
      .map((value, c) => ({ value, key: pythonStrAndType(value, reals.has(`${r}:${c}`)) }))
      // Stable, as Python's sorted is. Python orders strings by code point, `<` by UTF-16 unit;
      // they differ only for characters from U+E000 on, which no number's key holds, and only
      // the places of equal numbers with different keys can change a verdict here.
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return rowKey(sorted.map((x) => x.value));
  });
}
