import type { Dialect } from '../../../core/database/schema-types';
import { tokensOrNull, type SqlToken } from '../../database/sql-tokens';

/** Words that make up a join's keyword (`LEFT OUTER JOIN`, `INNER JOIN`, `JOIN`). */
export const JOIN_WORDS = new Set(['JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'CROSS', 'NATURAL']);
/** Words that end the FROM clause of one SELECT. */
export const ENDS_FROM = new Set(['WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'WINDOW']);
/** Words that join one SELECT to another. */
export const SET_OPERATIONS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
/** Words after which this rewrite does not trust itself: another query or a join it cannot cut. */
const REFUSED = new Set([...SET_OPERATIONS, 'USING']);

/** One table of a FROM clause: its join words, reference, ON condition, in text offsets. */
interface FromItem {
  /** Where the item begins: its join words, or its table for the first item. */
  start: number;
  /** Where its table reference begins. */
  ref: number;
  /** Where its ON begins (null: the first item, or a join without ON). */
  on: number | null;
  /** Where it ends: the next item's start, or the end of FROM. */
  end: number;
  /** Its table's name and its alias, upper-cased as the scanner gives them. */
  table: string;
  alias: string | null;
  /** Its alias, or its table's name when it has none, as written. */
  written: string;
}

/**
 * The query without its joins to `tables`, each with its ON condition (the first table of FROM
 * gives its place to the second, whose ON condition goes), or null when plain code cannot be sure
 * of it: the query is not one SELECT over `JOIN ... ON` (a subquery, a set operation, a comma or
 * USING join), a table is not joined there exactly once, or its name or alias is still written
 * somewhere after the cut. `unused-join`'s fix (`correction.joinFixes`).
 */
export function withoutJoins(sql: string, dialect: Dialect, tables: readonly string[]): string | null {
  let out: string | null = sql;
  for (const table of tables) {
    out = withoutJoin(out, dialect, table.toUpperCase());
    if (out === null) return null;
  }
  return out;
}

function withoutJoin(sql: string, dialect: Dialect, table: string): string | null {
  const tokens = tokensOrNull(sql, dialect);
  const items = tokens && fromItems(sql, tokens);
  if (!items) return null;
  const matching = items.filter((item) => item.table === table);
  if (matching.length !== 1) return null;
  const at = items.indexOf(matching[0]);
  const item = items[at];
  let cut: string;
  if (at > 0) cut = joined(sql.slice(0, item.start), sql.slice(item.end));
  else {
    const second = items[1];
    if (!second || second.on === null) return null;
    cut = joined(joined(sql.slice(0, item.start), sql.slice(second.ref, second.on)), sql.slice(second.end));
  }
  const names = new Set([item.table, ...(item.alias ? [item.alias] : [])]);
  const left = tokensOrNull(cut, dialect);
  if (!left || left.some((t) => (t.kind === 'word' || t.kind === 'quoted') && names.has(t.upper))) return null;
  return cut;
}

/** A table of the query's FROM clause. */
export interface FromTable {
  /** Its name as the scanner names it (upper-cased, unquoted). */
  table: string;
  /** What its columns are read through (its alias, or its name when it has none), as the scanner names it. */
  reference: string;
  /** The same, as the query writes it (to write another column through it). */
  written: string;
}

/** The tables of a query that is one SELECT over `JOIN ... ON`, in FROM order, or null for any other query. */
export function fromTables(sql: string, dialect: Dialect): FromTable[] | null {
  const tokens = tokensOrNull(sql, dialect);
  const items = tokens && fromItems(sql, tokens);
  return items?.map((item) => ({ table: item.table, reference: item.alias ?? item.table, written: item.written })) ?? null;
}

/** Two pieces of a query with one space between them. */
function joined(before: string, after: string): string {
  return after.trim() ? `${before.trimEnd()} ${after.trimStart()}` : before.trimEnd();
}

/** The FROM clause's tables, or null when the query is not one SELECT over `JOIN ... ON`. */
function fromItems(sql: string, tokens: SqlToken[]): FromItem[] | null {
  const word = (t: SqlToken | undefined) => (t?.kind === 'word' ? t.upper : null);
  const symbol = (t: SqlToken | undefined) => (t?.kind === 'symbol' ? t.text : null);
  if (tokens.filter((t) => word(t) === 'SELECT').length !== 1 || tokens.some((t) => REFUSED.has(word(t) ?? ''))) return null;
  let depth = 0;
  let from = -1;
  let end = tokens.length;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (symbol(t) === '(') depth++;
    if (symbol(t) === ')') depth--;
    if (depth !== 0) continue;
    if (from < 0 && word(t) === 'FROM') from = i;
    else if (from >= 0 && (ENDS_FROM.has(word(t) ?? '') || symbol(t) === ';')) {
      end = i;
      break;
    }
  }
  if (from < 0) return null;
  const clause = tokens.slice(from + 1, end);
  const clauseEnd = end < tokens.length ? tokens[end].start : sql.length;
  const items: FromItem[] = [];
  let current: FromItem | null = null;
  for (let i = 0; i < clause.length; i++) {
    const t = clause[i];
    if (symbol(t) === '(' || symbol(t) === ',') return null;
    const w = word(t);
    const startsJoin = w !== null && JOIN_WORDS.has(w) && !JOIN_WORDS.has(word(clause[i - 1]) ?? '');
    if (i === 0 || startsJoin) {
      if (current) current.end = t.start;
      let r = i;
      while (JOIN_WORDS.has(word(clause[r]) ?? '')) r++;
      const ref = clause[r];
      if (!ref || (ref.kind !== 'word' && ref.kind !== 'quoted')) return null;
      let a = r + 1;
      if (word(clause[a]) === 'AS') a++;
      const maybeAlias = clause[a];
      const alias =
        maybeAlias && (maybeAlias.kind === 'quoted' || (maybeAlias.kind === 'word' && maybeAlias.upper !== 'ON' && !JOIN_WORDS.has(maybeAlias.upper)))
          ? maybeAlias.upper
          : null;
      // What its columns are read through: the alias, or the table's name when it has none.
      const through = alias ? a : r;
      const written = sql.slice(clause[through].start, clause[through + 1]?.start ?? clauseEnd).trimEnd();
      current = { start: t.start, ref: ref.start, on: null, end: clauseEnd, table: ref.upper, alias, written };
      items.push(current);
      continue;
    }
    if (w === 'ON' && current) current.on = t.start;
  }
  return items.length > 1 ? items : null;
}
