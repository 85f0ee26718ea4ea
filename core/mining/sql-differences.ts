/**
 * How a wrong query's shape differs from the gold query's, in plain words: the clauses, set
 * operations, nesting, aggregates and tables one has and the other lacks. Rule mining can group
 * failures by these (`clustering.method: sql-differences`) where a small model's own clustering
 * merges nothing: two failures that both join a table the answer does not need are the same
 * mistake, whatever words their explanations use. Columns, values and conditions are not
 * compared (the same shape with another column is a database-specific slip).
 *
 * Read from the SQL text with string literals blanked, so `'Group by'` inside a value is no clause.
 */

const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;

interface Shape {
  setOperation: boolean;
  groupBy: boolean;
  having: boolean;
  subquery: boolean;
  aggregates: Set<string>;
  countDistinct: boolean;
  distinct: boolean;
  orderBy: boolean;
  descending: boolean;
  limit: boolean;
}

/** The query's text, lower case, string literals and quoted names blanked. */
function bare(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
    .replace(/`[^`]*`/g, '``')
    .toLowerCase();
}

/** The shape of a query already bared (`bare`). */
function shapeOf(s: string): Shape {
  const orderBy = /\border\s+by\b/.test(s);
  return {
    setOperation: /\b(intersect|except|union)\b/.test(s),
    groupBy: /\bgroup\s+by\b/.test(s),
    having: /\bhaving\b/.test(s),
    subquery: /\(\s*select\b/.test(s),
    aggregates: new Set(AGGREGATES.filter((a) => new RegExp(`\\b${a}\\s*\\(`).test(s))),
    countDistinct: /\bcount\s*\(\s*distinct\b/.test(s),
    distinct: /\bselect\s+distinct\b/.test(s),
    orderBy,
    descending: orderBy && /\border\s+by\b[^;]*\bdesc\b/.test(s),
    limit: /\blimit\b/.test(s),
  };
}

/** The two queries' shapes, and the tables each reads (null when either did not parse: tables are then not compared). */
interface Pair {
  c: Shape;
  g: Shape;
  tables: { candidate: Set<string>; gold: Set<string> } | null;
}

/** One query alone: its shape and its bare text. */
interface Query {
  shape: Shape;
  text: string;
}

const onlyIn = (a: Set<string>, b: Set<string>) => [...a].some((x) => !b.has(x));

/** The two differences in the tables read: compared only when both queries parsed (the other tests read the text). */
const EXTRA_TABLE = 'reads a table the answer does not need';
const MISSING_TABLE = 'does not read a table the answer needs';

/** Whether the query reads more than one table reference: a join, a comma between tables, or a nested query. */
function readsSeveral(s: string): boolean {
  return (s.match(/\b(?:from|join)\b/g) ?? []).length > 1 || /\bfrom\s+[\w."`]+(?:\s+(?:as\s+)?\w+)?\s*,/.test(s);
}

/**
 * Each difference, worded as what the wrong query does, with its test on the pair and, third,
 * what a query must show for the difference to be possible at all (read from the query alone,
 * with no gold query: a query without GROUP BY cannot group where the answer does not). In this
 * order (the first a failure shows names its group): set operations, grouping, HAVING, nesting,
 * tables, aggregates, DISTINCT, ordering, LIMIT.
 */
const DIFFERENCE_TESTS = [
  ['uses INTERSECT, EXCEPT or UNION where the answer does not', ({ c, g }: Pair) => c.setOperation && !g.setOperation, (q: Query) => q.shape.setOperation],
  ['does not use the INTERSECT, EXCEPT or UNION the answer needs', ({ c, g }: Pair) => !c.setOperation && g.setOperation, (q: Query) => !q.shape.setOperation],
  ['groups rows (GROUP BY) where the answer does not', ({ c, g }: Pair) => c.groupBy && !g.groupBy, (q: Query) => q.shape.groupBy],
  ['does not group rows (GROUP BY) where the answer does', ({ c, g }: Pair) => !c.groupBy && g.groupBy, (q: Query) => !q.shape.groupBy],
  ['filters groups (HAVING) where the answer does not', ({ c, g }: Pair) => c.having && !g.having, (q: Query) => q.shape.having],
  ['does not filter groups (HAVING) where the answer does', ({ c, g }: Pair) => !c.having && g.having, (q: Query) => !q.shape.having],
  ['nests a subquery where the answer does not', ({ c, g }: Pair) => c.subquery && !g.subquery, (q: Query) => q.shape.subquery],
  ['does not nest the subquery the answer needs', ({ c, g }: Pair) => !c.subquery && g.subquery, (q: Query) => !q.shape.subquery],
  [
    'reads a table the answer does not need',
    ({ tables }: Pair) => tables !== null && onlyIn(tables.candidate, tables.gold),
    (q: Query) => readsSeveral(q.text),
  ],
  [MISSING_TABLE, ({ tables }: Pair) => tables !== null && onlyIn(tables.gold, tables.candidate), () => true],
  [
    'uses an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer does not',
    ({ c, g }: Pair) => onlyIn(c.aggregates, g.aggregates),
    (q: Query) => q.shape.aggregates.size > 0,
  ],
  ['lacks an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer uses', ({ c, g }: Pair) => onlyIn(g.aggregates, c.aggregates), () => true],
  [
    'counts distinct values where the answer counts rows, or the reverse',
    ({ c, g }: Pair) => c.aggregates.has('count') && g.aggregates.has('count') && c.countDistinct !== g.countDistinct,
    (q: Query) => q.shape.aggregates.has('count'),
  ],
  ['removes duplicates (DISTINCT) where the answer does not', ({ c, g }: Pair) => c.distinct && !g.distinct, (q: Query) => q.shape.distinct],
  ['does not remove duplicates (DISTINCT) where the answer does', ({ c, g }: Pair) => !c.distinct && g.distinct, (q: Query) => !q.shape.distinct],
  ['sorts (ORDER BY) where the answer does not', ({ c, g }: Pair) => c.orderBy && !g.orderBy, (q: Query) => q.shape.orderBy],
  ['does not sort (ORDER BY) where the answer does', ({ c, g }: Pair) => !c.orderBy && g.orderBy, (q: Query) => !q.shape.orderBy],
  ['sorts the other way (ASC against DESC)', ({ c, g }: Pair) => c.orderBy && g.orderBy && c.descending !== g.descending, (q: Query) => q.shape.orderBy],
  ['limits the rows (LIMIT) where the answer does not', ({ c, g }: Pair) => c.limit && !g.limit, (q: Query) => q.shape.limit],
  ['does not limit the rows (LIMIT) where the answer does', ({ c, g }: Pair) => !c.limit && g.limit, (q: Query) => !q.shape.limit],
] as const;

export type SqlDifference = (typeof DIFFERENCE_TESTS)[number][0];

/** Every difference, in the order that names a failure's group. */
export const SQL_DIFFERENCES: readonly SqlDifference[] = DIFFERENCE_TESTS.map(([difference]) => difference);

/**
 * The differences of `candidate` from `gold`, in SQL_DIFFERENCES order. `tables` are the real
 * tables each reads (from the SQL analyzer), or null when either did not parse: tables are then
 * not compared.
 */
export function sqlDifferences(candidate: string, gold: string, tables: { candidate: string[]; gold: string[] } | null): SqlDifference[] {
  const lower = (names: string[]) => new Set(names.map((n) => n.toLowerCase()));
  const pair: Pair = {
    c: shapeOf(bare(candidate)),
    g: shapeOf(bare(gold)),
    tables: tables && { candidate: lower(tables.candidate), gold: lower(tables.gold) },
  };
  return DIFFERENCE_TESTS.filter(([, differs]) => differs(pair)).map(([difference]) => difference);
}

/**
 * Whether `sql` can show `difference` at all, judged from the query alone: a rule mined from the
 * failures that sort where the answer does not is no use to a query without ORDER BY. Online
 * correction offers a rule only to the queries that pass (core/knowledge CorrectionRule.difference).
 * Any other text (a rule grouped by the model, not by shape) passes.
 */
export function queryMayShow(sql: string, difference: string): boolean {
  const test = DIFFERENCE_TESTS.find(([d]) => d === difference);
  if (!test) return true;
  const text = bare(sql);
  return test[2]({ shape: shapeOf(text), text });
}

/**
 * What a rule rewrite changed beyond what its rules say: a rule mined from the failures that
 * differ from their right query by D is applied right when the rewrite differs from the query
 * it rewrote by D and by nothing else. `missing`: a rule's difference the rewrite did not make;
 * `unexpected`: a difference no applied rule names. Tables are not compared (no parse here), so a
 * table rule is only held to changing nothing else. Null when a rule has no difference (grouped
 * by the model): nothing says what it may change.
 */
export function rewriteBeyondRules(original: string, rewrite: string, differences: (string | undefined)[]): { missing: string[]; unexpected: string[] } | null {
  if (differences.some((d) => d === undefined)) return null;
  const made = sqlDifferences(original, rewrite, null);
  const tableTest = (d: string | undefined) => d === EXTRA_TABLE || d === MISSING_TABLE;
  return {
    missing: differences.filter((d): d is string => !tableTest(d) && !made.includes(d as SqlDifference)),
    unexpected: made.filter((d) => !differences.includes(d)),
  };
}

/** `text` with every parenthesised part, innermost first, written `[]` (`count(*)` → `count[]`): what is left is the outermost query. */
function outermost(text: string): string {
  let flat = text;
  for (let prev = ''; prev !== flat;) [prev, flat] = [flat, flat.replace(/\([^()]*\)/g, '[]')];
  return flat;
}

const AGGREGATE_CALL = new RegExp(`\\b(?:${AGGREGATES.join('|')})\\s*\\[\\]`, 'g');

/** A select-list item (read by `outermost`) made of aggregates and arithmetic only, alias aside. */
function onlyAggregates(item: string): boolean {
  const unaliased = item
    .trim()
    .replace(/\s+as\s+[^\s()]+$/, '')
    .replace(/\]\s+[^\s[\]]+$/, ']');
  const rest = unaliased.replace(AGGREGATE_CALL, '');
  return rest !== unaliased && /^[\s\d.+\-*/%]*$/.test(rest);
}

/**
 * Whether the query's answer is several rows nobody can tell apart: its outermost SELECT groups
 * rows (GROUP BY), shows nothing but aggregates (so not the column it groups by), and does not
 * keep one row with LIMIT. `SELECT SUM(bonus) FROM evaluation GROUP BY employee_id` is a column of
 * sums with no employee beside them. Such a query is almost never an answer: 3 of Spider train's
 * 8,659 gold queries have this shape, against 1,953 that group rows. Queries nested in another
 * (`... IN (SELECT MIN(salary) ... GROUP BY department_id)`) and set operations are not judged.
 */
export function groupsRowsItDoesNotLabel(sql: string): boolean {
  const top = outermost(bare(sql));
  if (/\b(intersect|except|union)\b/.test(top) || !/\bgroup\s+by\b/.test(top) || /\blimit\b/.test(top)) return false;
  const selectList = /^\s*select\s+(?:distinct\s+)?([\s\S]*?)\s+from\b/.exec(top)?.[1];
  return selectList !== undefined && selectList.split(',').every(onlyAggregates);
}
