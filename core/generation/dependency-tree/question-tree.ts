/**
 * DexterSQL's dependency-tree intermediate representation (§3.3.2): the question's chunks as a
 * tree of heads and dependents (`nodes`), and the SQL-relevant elements read off it — what is
 * asked for, aggregates, filters with their literals, temporal constraints, ORDER BY + LIMIT,
 * grouping — which the generation prompt shows as an SQL skeleton. The skeleton is a hint for
 * the model, so no literal the question states is lost, not a query it must keep.
 *
 * Plain JSON (no classes, no undefined-only fields), because it travels through Temporal.
 */

import type { TreeNode } from './tree-nodes';

export type AggregateFunction = 'COUNT' | 'AVG' | 'SUM' | 'MAX' | 'MIN';

export type FilterOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | 'LIKE' | 'NOT LIKE' | 'BETWEEN' | 'IN' | 'NOT IN';

/** Where a literal came from in the question; decides how it is quoted in the skeleton. */
export type LiteralKind = 'quoted' | 'number' | 'percent' | 'money' | 'date' | 'year' | 'proper_noun' | 'code' | 'word';

export interface QuestionLiteral {
  /** The words as the question writes them. */
  text: string;
  /** Normalised: numbers as numbers ("three" → 3, "1,000" → 1000), dates as ISO text. */
  value: string | number;
  kind: LiteralKind;
  /** Token positions [first, last] in the question, for tests and for tracing. */
  tokens: [number, number];
}

export interface Filter {
  /** The noun phrase naming the column ("age", "home city"), null when the question leaves it implicit. */
  column: string | null;
  /** The words before the value that tie it to the rest of the question ("singers from"), for the implicit case. */
  context: string;
  operator: FilterOperator;
  /** One value for comparisons, two for BETWEEN (low, high), several for IN. */
  values: QuestionLiteral[];
  /** The question negates the condition ("not", "never", "other than"); already folded into `operator`. */
  negated: boolean;
  /**
   * The condition compares an aggregate, not a column (HAVING): "at least 10 orders" is
   * COUNT(<flights>) >= 10. Set for a count with a comparison, written before the counted plural noun.
   */
  aggregate: AggregateFunction | null;
  /** For LIKE: where the value sits in the text ("contains" → anywhere). */
  match?: 'contains' | 'starts' | 'ends';
}

export interface Aggregate {
  function: AggregateFunction;
  /** What is aggregated ("singers", "age"); "*" when the question counts rows. */
  argument: string;
  /** The words that asked for it ("how many", "average"). */
  cue: string;
}

export interface Ordering {
  /** The phrase ordered by ("age", "singers" when counting them). */
  by: string;
  direction: 'ASC' | 'DESC';
  /** Ordering by an aggregate, as in "the most singers" (ORDER BY COUNT(*)). */
  aggregate: AggregateFunction | null;
  /** The words that asked for it ("oldest", "sorted by", "in descending order"). */
  cue: string;
}

export interface Projection {
  /** The noun phrase asked for ("names", "average age"). */
  phrase: string;
  aggregate: AggregateFunction | null;
  /** Token positions of the phrase; null for COUNT(*) with nothing named. */
  tokens: [number, number] | null;
}

export interface QuestionTree {
  question: string;
  /** Every chunk with its head; node 0 is the root (the asking words). */
  nodes: TreeNode[];
  projections: Projection[];
  aggregates: Aggregate[];
  /** Value conditions (WHERE / HAVING), excluding dates and years. */
  filters: Filter[];
  /** Conditions on dates and years ("in 1991", "before 2005", "between 2010 and 2012"). */
  temporal: Filter[];
  /**
   * Lowercase words only the grammar marks as values ("female students", "draft format"). Many
   * are right in meaning but stored otherwise ('F' for female), so they are offered as guesses,
   * never as conditions.
   */
  possibleValues: Filter[];
  /** ORDER BY keys, from superlatives ("oldest") and explicit phrases ("sorted by age"). */
  orderBy: Ordering[];
  /** LIMIT: 1 for a superlative, N for "top N" / "the 3 oldest", null when nothing limits rows. */
  limit: number | null;
  /** GROUP BY phrases ("for each department" → "department"). */
  groupBy: string[];
  /** "different", "distinct", "unique": the answer needs DISTINCT. */
  distinct: boolean;
}
