/**
 * What the gold SQL of a benchmark question says, as the truth for `bench/ir.ts`: its literals
 * (from the SQL analysis interface, so parsing rules live in one place), whether it aggregates,
 * and whether its outermost query orders and limits.
 *
 * The analysis interface reports tables, columns and literals only, not clause shape, so the
 * aggregate and ORDER BY + LIMIT facts are read from the SQL's lexical units (core/evaluation):
 * gold SQL is well formed, and a word followed by `(` or a keyword at parenthesis depth 0 is
 * unambiguous there.
 */
import type { SchemaHint, SqlAnalyzer, SqlLiteral } from '../../core/sql-analysis';
import { sqlUnits } from '../../core/evaluation/sql-lexical-units';

export interface GoldFacts {
  literals: SqlLiteral[];
  /** COUNT / AVG / SUM / MAX / MIN called anywhere in the query. */
  aggregates: boolean;
  /** The outermost query has both ORDER BY and LIMIT (a superlative or top-N). */
  orderLimit: boolean;
  /** How many expressions the outermost SELECT lists: what the question asks to be shown. */
  selectItems: number;
}

const AGGREGATE_FUNCTIONS = new Set(['count', 'avg', 'sum', 'max', 'min']);

/** Null when the gold SQL does not parse (then the question is left out of every rate). */
export function goldFacts(analyzer: SqlAnalyzer, sql: string, schema?: SchemaHint): GoldFacts | null {
  const analysis = analyzer.analyze(sql, 'sqlite', schema);
  if (!analysis.ok) return null;
  const units = sqlUnits(sql).filter((u) => u.kind !== 'comment' && u.text.trim() !== '');
  let depth = 0;
  let aggregates = false;
  let topOrder = false;
  let topLimit = false;
  // Commas at depth 0 between the first SELECT and its FROM separate the outermost select items.
  let selecting = false;
  let selectItems = 0;
  units.forEach((unit, i) => {
    if (unit.text === '(') depth++;
    else if (unit.text === ')') depth--;
    if (selecting && depth === 0 && unit.text === ',') selectItems++;
    if (unit.kind !== 'word') return;
    const word = unit.text.toLowerCase();
    if (depth === 0 && word === 'select' && selectItems === 0 && !selecting) {
      selecting = true;
      selectItems = 1;
    } else if (depth === 0 && word === 'from') selecting = false;
    if (AGGREGATE_FUNCTIONS.has(word) && units[i + 1]?.text === '(') aggregates = true;
    if (depth === 0 && word === 'order' && units[i + 1]?.text.toLowerCase() === 'by') topOrder = true;
    if (depth === 0 && word === 'limit') topLimit = true;
  });
  return { literals: analysis.literals, aggregates, orderLimit: topOrder && topLimit, selectItems };
}
