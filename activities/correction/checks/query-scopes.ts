import type { SchemaInfo } from '../../../core/database/schema-types';
import type { SqlToken } from '../../database/sql-tokens';
import { same } from './query-tables';

/**
 * Which table a name in a query stands for, read from its tokens as SQL scopes names: each SELECT
 * is a scope, a subquery also sees the names of the SELECTs around it, the branches of a UNION,
 * INTERSECT or EXCEPT see only their own. A lexical reading, not a parser: what it cannot place
 * (a derived table, a CTE's name) it leaves out, and its callers rewrite only what it resolves.
 */

export interface TableSource {
  /** As the schema spells it. */
  table: string;
  alias: string | null;
  /** The token of its alias, or of its name when it has none. */
  token: SqlToken;
  /** The SELECT whose FROM clause reads it (see `selectScopes`). */
  scope: number;
}

/** What the query calls a table it reads: its alias, else its name. */
export const refOf = (s: TableSource) => s.alias ?? s.table;

/** A bare word as the scanner reads one (activities/database/sql-tokens.ts). */
const WORD = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/;

/** Words that end a FROM clause's table list or come between a table and what follows it. */
const NOT_AN_ALIAS = new Set(
  'ON USING WHERE GROUP ORDER HAVING LIMIT OFFSET UNION INTERSECT EXCEPT JOIN INNER LEFT RIGHT FULL OUTER CROSS NATURAL WINDOW AS'.split(' '),
);
export const ENDS_FROM = new Set('WHERE GROUP ORDER HAVING LIMIT OFFSET UNION INTERSECT EXCEPT WINDOW SELECT'.split(' '));

/**
 * The schema tables a query reads in its FROM and JOIN clauses, with their aliases: a lexical
 * reading (after FROM, JOIN or a comma of a FROM list, a table name, then `AS alias` or a bare
 * alias). A name the schema does not have (a CTE, a derived table) is left out.
 */
export function tableSources(sql: string, tokens: SqlToken[], schema: SchemaInfo, scopes: Scopes): TableSource[] {
  const sources: TableSource[] = [];
  const schemaName = (t: SqlToken | undefined) =>
    t && (t.kind === 'word' || t.kind === 'quoted') ? schema.tables.find((s) => s.name.toUpperCase() === t.upper)?.name : undefined;
  let inFrom = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'word' && ENDS_FROM.has(t.upper)) inFrom = false;
    if (t.kind === 'symbol' && t.text === ')') inFrom = false;
    const opens = (t.kind === 'word' && (t.upper === 'FROM' || t.upper === 'JOIN')) || (inFrom && t.kind === 'symbol' && t.text === ',');
    if (!opens) continue;
    if (t.kind === 'word' && t.upper === 'FROM') inFrom = true;
    let at = i + 1;
    // `db.table`: the last part names the table.
    while (tokens[at + 1]?.kind === 'symbol' && (tokens[at + 1] as { text: string }).text === '.') at += 2;
    const table = schemaName(tokens[at]);
    if (!table) continue;
    const next = tokens[at + 1];
    const aliasToken = next?.kind === 'word' && next.upper === 'AS' ? tokens[at + 2] : next;
    const isAlias = aliasToken && (aliasToken.kind === 'quoted' || (aliasToken.kind === 'word' && !NOT_AN_ALIAS.has(aliasToken.upper)));
    const scope = scopes.of[at];
    sources.push(isAlias ? { table, alias: written(sql, aliasToken), token: aliasToken, scope } : { table, alias: null, token: tokens[at], scope });
  }
  return sources;
}

/** A word as the query spells it; a quoted name without its quotes. */
export function written(sql: string, token: SqlToken): string {
  // Not `upper.length`: upper-casing can change a length ('ß' → 'SS').
  if (token.kind === 'word') return WORD.exec(sql.slice(token.start))?.[0] ?? token.upper;
  return token.kind === 'quoted' ? token.upper : '';
}

/**
 * The SELECTs of a query as scopes: `of[i]` is the scope of token i, `parent[s]` the scope whose
 * names scope s also sees (-1 for none). A `(` followed by SELECT or WITH opens a scope inside
 * the current one; UNION, INTERSECT and EXCEPT start a sibling of the current one.
 */
export interface Scopes {
  of: number[];
  parent: number[];
}

const SET_OPERATORS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

export function selectScopes(tokens: SqlToken[]): Scopes {
  const parent = [-1];
  const of: number[] = [];
  const open: number[] = []; // for each open parenthesis, the scope to return to at its `)`
  let current = 0;
  const start = (enclosing: number) => parent.push(enclosing) - 1;
  tokens.forEach((t, i) => {
    of[i] = current;
    const next = tokens[i + 1];
    if (t.kind === 'symbol' && t.text === '(') {
      open.push(current);
      if (next?.kind === 'word' && (next.upper === 'SELECT' || next.upper === 'WITH')) current = start(current);
    } else if (t.kind === 'symbol' && t.text === ')') {
      current = open.pop() ?? current;
    } else if (t.kind === 'word' && SET_OPERATORS.has(t.upper)) {
      current = start(parent[current]);
    }
  });
  return { of, parent };
}

/** The tables a SELECT can name: its own, then those of the SELECTs around it. */
export function inReach(sources: TableSource[], scopes: Scopes, scope: number): TableSource[] {
  const reach: TableSource[] = [];
  for (let s = scope; s !== -1; s = scopes.parent[s]) reach.push(...sources.filter((x) => x.scope === s));
  return reach;
}

/** The tables of the nearest SELECT around `scope` (itself first) that reads any table `pick` accepts. */
export function nearest(sources: TableSource[], scopes: Scopes, scope: number, pick: (s: TableSource) => boolean): TableSource[] {
  for (let s = scope; s !== -1; s = scopes.parent[s]) {
    const found = sources.filter((x) => x.scope === s && pick(x));
    if (found.length) return found;
  }
  return [];
}

/** The table a name stands for where it is written: the nearest SELECT that binds it, if that binds it once. */
export function resolve(name: string, sources: TableSource[], scopes: Scopes, scope: number): TableSource | null {
  const bound = nearest(sources, scopes, scope, (x) => same(refOf(x), name));
  return bound.length === 1 ? bound[0] : null;
}

/** A change to the query's text: `length` characters at `start` (none for an insertion) become `text`. */
export interface Edit {
  start: number;
  length: number;
  text: string;
}

/** The query with the edits made; they must not overlap. */
export function applyEdits(sql: string, edits: Edit[]): string {
  let out = '';
  let at = 0;
  for (const { start, length, text } of [...edits].sort((a, b) => a.start - b.start)) {
    out += sql.slice(at, start) + text;
    at = start + length;
  }
  return out + sql.slice(at);
}

/** Where the query writes `qualifier.column` (case aside): the indexes of the qualifier's tokens. */
export function qualifiedUses(tokens: SqlToken[], qualifier: string, column: string): number[] {
  const uses: number[] = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [q, dot, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (q.kind !== 'word' || dot.kind !== 'symbol' || dot.text !== '.' || c.kind !== 'word') continue;
    if (same(q.upper, qualifier) && same(c.upper, column)) uses.push(i);
  }
  return uses;
}
