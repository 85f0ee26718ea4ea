/**
 * Spider's difficulty levels (easy / medium / hard / extra), computed exactly as
 * test-suite-sql-eval evaluation.py `eval_hardness` does, from the parsed gold SQL that
 * Spider's dev.json ships in each item's `sql` field. Papers' Spider tables break EX down by
 * these levels (dev: 248 / 446 / 174 / 166).
 */

export type SpiderHardness = 'easy' | 'medium' | 'hard' | 'extra';

/** The parts of Spider's SQL dict that hardness reads (dev.json `sql`). */
export interface SpiderSqlDict {
  select: [boolean, [number, unknown][]];
  from: { table_units: unknown[]; conds: unknown[] };
  where: unknown[];
  groupBy: unknown[][];
  having: unknown[];
  orderBy: [] | [string, unknown[][]];
  limit: number | null;
  intersect: SpiderSqlDict | null;
  except: SpiderSqlDict | null;
  union: SpiderSqlDict | null;
}

type CondUnit = [unknown, number, unknown, unknown, unknown];

const LIKE_OP = 9; // WHERE_OPS.index('like')

/** Python's `unit[0] != 0`: also true for a `not_op` of True, a quirk kept on purpose. */
function hasAgg(unit: unknown): boolean {
  const first = (unit as unknown[])[0];
  return first !== 0 && first !== false;
}

const countAgg = (units: unknown[]) => units.filter(hasAgg).length;
const condUnits = (conds: unknown[]) => conds.filter((_, i) => i % 2 === 0) as CondUnit[];
const connectives = (conds: unknown[]) => conds.filter((_, i) => i % 2 === 1);
const isDict = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

function countComponent1(sql: SpiderSqlDict): number {
  let count = 0;
  if (sql.where.length > 0) count++;
  if (sql.groupBy.length > 0) count++;
  if (sql.orderBy.length > 0) count++;
  if (sql.limit !== null) count++;
  if (sql.from.table_units.length > 0) count += sql.from.table_units.length - 1;
  const all = [sql.from.conds, sql.where, sql.having];
  count += all.flatMap(connectives).filter((t) => t === 'or').length;
  count += all.flatMap(condUnits).filter((u) => u[1] === LIKE_OP).length;
  return count;
}

function countComponent2(sql: SpiderSqlDict): number {
  let nested = 0;
  for (const unit of [sql.from.conds, sql.where, sql.having].flatMap(condUnits)) {
    if (isDict(unit[3])) nested++;
    if (isDict(unit[4])) nested++;
  }
  for (const part of [sql.intersect, sql.except, sql.union]) if (part !== null) nested++;
  return nested;
}

function countOthers(sql: SpiderSqlDict): number {
  let count = 0;
  let aggs = countAgg(sql.select[1]) + countAgg(condUnits(sql.where)) + countAgg(sql.groupBy);
  if (sql.orderBy.length > 0) {
    const units = sql.orderBy[1] as unknown[][];
    aggs += countAgg([...units.map((u) => u[1]).filter(Boolean), ...units.map((u) => u[2]).filter(Boolean)]);
  }
  aggs += countAgg(sql.having);
  if (aggs > 1) count++;
  if (sql.select[1].length > 1) count++;
  if (sql.where.length > 1) count++;
  if (sql.groupBy.length > 1) count++;
  return count;
}

export function spiderHardness(sql: SpiderSqlDict): SpiderHardness {
  const c1 = countComponent1(sql);
  const c2 = countComponent2(sql);
  const others = countOthers(sql);
  if (c1 <= 1 && others === 0 && c2 === 0) return 'easy';
  if ((others <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && others < 2 && c2 === 0)) return 'medium';
  if ((others > 2 && c1 <= 2 && c2 === 0) || (c1 > 2 && c1 <= 3 && others <= 2 && c2 === 0) || (c1 <= 1 && others === 0 && c2 <= 1)) return 'hard';
  return 'extra';
}
