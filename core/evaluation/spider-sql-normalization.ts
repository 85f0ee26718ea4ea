/**
 * The text rewrites test-suite-sql-eval applies before it executes a pair (exec_eval.py):
 * `postprocess` joins `> =`, `< =`, `! =`; `remove_distinct` drops every DISTINCT keyword
 * (aggregates included: `count(DISTINCT x)` becomes `count( x)`) unless --keep_distinct;
 * `replace_cur_year` turns `YEAR(CURDATE())` into 2020. Each is reproduced literally, quirks
 * included (the comparison joins are plain text replacements, even inside string literals).
 */
import { sqlUnits } from './sql-lexical-units';

export function joinSpacedComparisons(sql: string): string {
  return sql.replaceAll('> =', '>=').replaceAll('< =', '<=').replaceAll('! =', '!=');
}

export function replaceCurrentYear(sql: string): string {
  return sql.replace(/YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/gi, '2020');
}

/** Row order matters exactly when the (rewritten) gold SQL contains `order by`, anywhere. */
export function spiderOrderMatters(goldSql: string): boolean {
  return goldSql.toLowerCase().includes('order by');
}

/**
 * Drops every DISTINCT keyword token and keeps every other character as it was, as sqlparse's
 * `flatten()` + join does. Quoted strings and names, comments and longer words that merely
 * contain "distinct" are left alone.
 */
export function removeDistinct(sql: string): string {
  return sqlUnits(sql)
    .filter((u) => !(u.kind === 'word' && u.text.toLowerCase() === 'distinct'))
    .map((u) => u.text)
    .join('');
}

/** Both queries as exec_eval.py executes them, and whether row order counts. */
export function spiderComparablePair(predicted: string, gold: string, keepDistinct = false): { predicted: string; gold: string; orderMatters: boolean } {
  let p = joinSpacedComparisons(predicted);
  let g = joinSpacedComparisons(gold);
  if (!keepDistinct) {
    p = removeDistinct(p);
    g = removeDistinct(g);
  }
  return { predicted: replaceCurrentYear(p), gold: replaceCurrentYear(g), orderMatters: spiderOrderMatters(g) };
}
