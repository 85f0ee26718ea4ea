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

/** A difference, worded as what the wrong query does; listed in this order (the first names a failure's group). */
export const SQL_DIFFERENCES = [
  'uses INTERSECT, EXCEPT or UNION where the answer does not',
  'does not use the INTERSECT, EXCEPT or UNION the answer needs',
  'groups rows (GROUP BY) where the answer does not',
  'does not group rows (GROUP BY) where the answer does',
  'filters groups (HAVING) where the answer does not',
  'does not filter groups (HAVING) where the answer does',
  'nests a subquery where the answer does not',
  'does not nest the subquery the answer needs',
  'reads a table the answer does not need',
  'does not read a table the answer needs',
  'uses an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer does not',
  'lacks an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer uses',
  'counts distinct values where the answer counts rows, or the reverse',
  'removes duplicates (DISTINCT) where the answer does not',
  'does not remove duplicates (DISTINCT) where the answer does',
  'sorts (ORDER BY) where the answer does not',
  'does not sort (ORDER BY) where the answer does',
  'sorts the other way (ASC against DESC)',
  'limits the rows (LIMIT) where the answer does not',
  'does not limit the rows (LIMIT) where the answer does',
] as const;

export type SqlDifference = (typeof SQL_DIFFERENCES)[number];

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

function shapeOf(sql: string): Shape {
  const s = bare(sql);
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

/**
 * The differences of `candidate` from `gold`, in SQL_DIFFERENCES order. `tables` are the real
 * tables each reads (from the SQL analyzer), or null when either did not parse: tables are then
 * not compared.
 */
export function sqlDifferences(candidate: string, gold: string, tables: { candidate: string[]; gold: string[] } | null): SqlDifference[] {
  const c = shapeOf(candidate);
  const g = shapeOf(gold);
  const found = new Set<SqlDifference>();
  const pair = (mine: boolean, theirs: boolean, extra: SqlDifference, missing: SqlDifference) => {
    if (mine && !theirs) found.add(extra);
    if (!mine && theirs) found.add(missing);
  };
  pair(c.setOperation, g.setOperation, SQL_DIFFERENCES[0], SQL_DIFFERENCES[1]);
  pair(c.groupBy, g.groupBy, SQL_DIFFERENCES[2], SQL_DIFFERENCES[3]);
  pair(c.having, g.having, SQL_DIFFERENCES[4], SQL_DIFFERENCES[5]);
  pair(c.subquery, g.subquery, SQL_DIFFERENCES[6], SQL_DIFFERENCES[7]);
  if (tables) {
    const lower = (names: string[]) => new Set(names.map((n) => n.toLowerCase()));
    const [mine, theirs] = [lower(tables.candidate), lower(tables.gold)];
    if ([...mine].some((t) => !theirs.has(t))) found.add(SQL_DIFFERENCES[8]);
    if ([...theirs].some((t) => !mine.has(t))) found.add(SQL_DIFFERENCES[9]);
  }
  if ([...c.aggregates].some((a) => !g.aggregates.has(a))) found.add(SQL_DIFFERENCES[10]);
  if ([...g.aggregates].some((a) => !c.aggregates.has(a))) found.add(SQL_DIFFERENCES[11]);
  if (c.aggregates.has('count') && g.aggregates.has('count') && c.countDistinct !== g.countDistinct) found.add(SQL_DIFFERENCES[12]);
  pair(c.distinct, g.distinct, SQL_DIFFERENCES[13], SQL_DIFFERENCES[14]);
  pair(c.orderBy, g.orderBy, SQL_DIFFERENCES[15], SQL_DIFFERENCES[16]);
  if (c.orderBy && g.orderBy && c.descending !== g.descending) found.add(SQL_DIFFERENCES[17]);
  pair(c.limit, g.limit, SQL_DIFFERENCES[18], SQL_DIFFERENCES[19]);
  return SQL_DIFFERENCES.filter((d) => found.has(d));
}
