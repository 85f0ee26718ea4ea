import type { FocusedTable } from '../question/focused-table';
/**
 * Schema-linking quality of one question: how many of the columns the gold SQL uses survived
 * into the schema the pipeline finally focused on (recall), how much of that focused schema
 * the gold actually needed (precision), and how much of the database it kept (kept fraction:
 * recall is cheap when everything is kept). Names compare case-insensitively; a gold column whose
 * table the parser could not tell matches that column in any focused table.
 */
export interface GoldColumn {
  table: string | null;
  column: string;
}

export interface LinkingScore {
  recall: number;
  precision: number;
  goldColumns: number;
  focusedColumns: number;
  /** Focused columns over the database's columns. */
  keptFraction: number;
}

/** Null when the gold uses no concrete column (e.g. only `count(*)`): there is nothing to recall. */
export function linkingScore(gold: GoldColumn[], focused: FocusedTable[], databaseColumns: number): LinkingScore | null {
  const lower = (s: string) => s.toLowerCase();
  const focusedPairs = new Set(focused.flatMap((t) => t.columns.map((c) => `${lower(t.table)}.${lower(c)}`)));
  const focusedNames = new Set(focused.flatMap((t) => t.columns.map(lower)));
  const goldKeys = new Map<string, GoldColumn>();
  for (const g of gold) if (g.column !== '*') goldKeys.set(`${g.table === null ? '?' : lower(g.table)}.${lower(g.column)}`, g);
  if (goldKeys.size === 0) return null;

  let found = 0;
  const neededPairs = new Set<string>();
  for (const g of goldKeys.values()) {
    const hit = g.table === null ? focusedNames.has(lower(g.column)) : focusedPairs.has(`${lower(g.table)}.${lower(g.column)}`);
    if (hit) found++;
    if (g.table !== null) neededPairs.add(`${lower(g.table)}.${lower(g.column)}`);
  }
  const needed = [...focusedPairs].filter(
    (p) => neededPairs.has(p) || [...goldKeys.values()].some((g) => g.table === null && p.endsWith(`.${lower(g.column)}`)),
  ).length;
  return {
    recall: found / goldKeys.size,
    precision: focusedPairs.size === 0 ? 0 : needed / focusedPairs.size,
    goldColumns: goldKeys.size,
    focusedColumns: focusedPairs.size,
    keptFraction: databaseColumns === 0 ? 0 : Math.min(1, focusedPairs.size / databaseColumns),
  };
}
