import type { Finding } from '../../../core/correction/finding';
import type { SchemaInfo } from '../../../core/database/schema-types';
import { tokensOrNull, type SqlToken } from '../../database/sql-tokens';
import type { CheckInput } from './check-input';
import { distinct, hasColumn, same } from './query-tables';

/**
 * The database refused a column named through a table that does not have it: `T2.Name` where T2
 * is `hiring` and `Name` is a column of `shop`. It is the commonest error of a small model that
 * joins tables (it writes the right column with the wrong alias), and told only "no such column:
 * T2.Name" it writes the same again. The finding says which table the qualifier stands for and
 * which table of the query has the column; when the query does not read one, which table of the
 * schema does. An unqualified column that no table of the query has (`SELECT Cylinders FROM
 * car_names`) gets the tables of the schema that have it. Names compare case-blind; a misspelt
 * column is `unknown-name`'s.
 *
 * The rewrite (`fix`) is offered only when plain code is sure, reading scopes as SQL does (each
 * SELECT is one, a subquery sees the aliases of the SELECTs around it, the branches of a UNION,
 * INTERSECT or EXCEPT see only their own): every `qualifier.column` whose qualifier resolves to a
 * table without the column is in reach of exactly one table, read once in the qualifier's own
 * SELECT, that has the column, and that table's alias (or name) resolves to it where the column is
 * written (no inner SELECT reuses it). `correction.qualifierFixes` decides whether it is applied.
 */
export function columnOfOtherTable(input: CheckInput): Finding | null {
  if (input.execution.ok) return null;
  const missing = missingColumn(input.execution.message);
  if (!missing) return null;
  const tokens = tokensOrNull(input.sql, input.schema.dialect);
  if (!tokens) return null;
  const { schema } = input;
  if (missing.qualifier === null) return columnOfUnreadTable(input.sql, tokens, schema, missing.column);
  const qualifier = missing.qualifier;
  const scopes = selectScopes(tokens);
  const sources = tableSources(input.sql, tokens, schema, scopes);
  // The tables the qualifier stands for that lack the column (one per SELECT that binds it).
  const lacking = sources.filter((s) => same(refOf(s), qualifier) && !hasColumn(schema, s.table, missing.column));
  if (!lacking.length) return null;
  const [first] = lacking;
  const stands = same(first.table, qualifier) ? first.table : `${qualifier} (${first.table})`;
  const owners = inReach(sources, scopes, first.scope).filter((s) => hasColumn(schema, s.table, missing.column));
  const ownerTables = distinct(owners.map((s) => s.table));
  if (!ownerTables.length) return unreadHolders(schema, missing.column, `${stands} has no column ${missing.column}`);
  const refs = ownerTables.map((t) => owners.find((s) => s.table === t)!).map((s) => (s.alias ? `${s.table} (${s.alias})` : s.table));
  const message = `${stands} has no column ${missing.column}; ${listed(refs)} of the query ${ownerTables.length > 1 ? 'have' : 'has'} it: qualify it with that table`;
  const edits = sureEdits(input.sql, tokens, sources, scopes, { qualifier, column: missing.column }, schema);
  const sql = edits ? applyEdits(input.sql, edits) : null;
  const to = distinct((edits ?? []).map((e) => `${e.text}.${missing.column}`)).join(', ');
  return {
    check: 'column-of-other-table',
    severity: 'error',
    message,
    ...(sql ? { fix: { sql, description: `${qualifier}.${missing.column} → ${to}` } } : {}),
  };
}

/** An unqualified column no table of the query has: which tables of the schema have it. */
function columnOfUnreadTable(sql: string, tokens: SqlToken[], schema: SchemaInfo, column: string): Finding | null {
  const read = distinct(tableSources(sql, tokens, schema, selectScopes(tokens)).map((s) => s.table));
  if (!read.length || read.some((t) => hasColumn(schema, t, column))) return null;
  return unreadHolders(schema, column, `no table the query reads (${listed(read)}) has a column ${column}`);
}

/** The finding for a column only tables the query does not read have; null when no table has it (a misspelling). */
function unreadHolders(schema: SchemaInfo, column: string, problem: string): Finding | null {
  const holders = schema.tables.filter((t) => hasColumn(schema, t.name, column)).map((t) => t.name);
  if (!holders.length) return null;
  const several = holders.length > 1;
  return {
    check: 'column-of-other-table',
    severity: 'error',
    message: `${problem}; ${listed(holders)} ${several ? 'have' : 'has'} it, and the query does not read ${several ? 'them' : 'it'}: join the table that holds it`,
  };
}

interface TableSource {
  /** As the schema spells it. */
  table: string;
  alias: string | null;
  /** The token of its alias, or of its name when it has none. */
  token: SqlToken;
  /** The SELECT whose FROM clause reads it (see `selectScopes`). */
  scope: number;
}

/** What the query calls a table it reads: its alias, else its name. */
const refOf = (s: TableSource) => s.alias ?? s.table;

/** SQLite's, MySQL's and PostgreSQL's wording of a missing column, with its qualifier if written with one. */
function missingColumn(message: string): { qualifier: string | null; column: string } | null {
  const written =
    /no such column: ([^\s,;]+)/i.exec(message)?.[1] ??
    /Unknown column '([^']+)'/i.exec(message)?.[1] ??
    /column "?([^\s"]+)"? does not exist/i.exec(message)?.[1];
  const parts = written?.split('.').map((p) => p.replace(/^[`"[]|[`"\]]$/g, ''));
  if (!parts || parts.length > 2 || parts.some((p) => !p)) return null;
  return parts.length === 2 ? { qualifier: parts[0], column: parts[1] } : { qualifier: null, column: parts[0] };
}

/** A bare word as the scanner reads one (activities/database/sql-tokens.ts). */
const WORD = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/;

/** Words that end a FROM clause's table list or come between a table and what follows it. */
const NOT_AN_ALIAS = new Set(
  'ON USING WHERE GROUP ORDER HAVING LIMIT OFFSET UNION INTERSECT EXCEPT JOIN INNER LEFT RIGHT FULL OUTER CROSS NATURAL WINDOW AS'.split(' '),
);
const ENDS_FROM = new Set('WHERE GROUP ORDER HAVING LIMIT OFFSET UNION INTERSECT EXCEPT WINDOW SELECT'.split(' '));

/**
 * The schema tables a query reads in its FROM and JOIN clauses, with their aliases: a lexical
 * reading (after FROM, JOIN or a comma of a FROM list, a table name, then `AS alias` or a bare
 * alias). A name the schema does not have (a CTE, a derived table) is left out.
 */
function tableSources(sql: string, tokens: SqlToken[], schema: SchemaInfo, scopes: Scopes): TableSource[] {
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
function written(sql: string, token: SqlToken): string {
  // Not `upper.length`: upper-casing can change a length ('ß' → 'SS').
  if (token.kind === 'word') return WORD.exec(sql.slice(token.start))?.[0] ?? token.upper;
  return token.kind === 'quoted' ? token.upper : '';
}

/**
 * The SELECTs of a query as scopes: `of[i]` is the scope of token i, `parent[s]` the scope whose
 * names scope s also sees (-1 for none). A `(` followed by SELECT or WITH opens a scope inside
 * the current one; UNION, INTERSECT and EXCEPT start a sibling of the current one.
 */
interface Scopes {
  of: number[];
  parent: number[];
}

const SET_OPERATORS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

function selectScopes(tokens: SqlToken[]): Scopes {
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
function inReach(sources: TableSource[], scopes: Scopes, scope: number): TableSource[] {
  const reach: TableSource[] = [];
  for (let s = scope; s !== -1; s = scopes.parent[s]) reach.push(...sources.filter((x) => x.scope === s));
  return reach;
}

/** The table a name stands for where it is written: the nearest SELECT that binds it, if that binds it once. */
function resolve(name: string, sources: TableSource[], scopes: Scopes, scope: number): TableSource | null {
  for (let s = scope; s !== -1; s = scopes.parent[s]) {
    const bound = sources.filter((x) => x.scope === s && same(refOf(x), name));
    if (bound.length) return bound.length === 1 ? bound[0] : null;
  }
  return null;
}

/** One qualifier to replace: where it starts in the text, how long it is, and the owner's alias or name. */
interface Edit {
  start: number;
  length: number;
  text: string;
}

/** The qualifier rewrites of every wrong `qualifier.column`, or null unless plain code is sure of each (see above). */
function sureEdits(
  sql: string,
  tokens: SqlToken[],
  sources: TableSource[],
  scopes: Scopes,
  missing: { qualifier: string; column: string },
  schema: SchemaInfo,
): Edit[] | null {
  const edits: Edit[] = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [q, dot, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    const names = q.kind === 'word' && dot.kind === 'symbol' && dot.text === '.' && c.kind === 'word';
    if (!names || !same(q.upper, missing.qualifier) || !same(c.upper, missing.column)) continue;
    const bound = resolve(missing.qualifier, sources, scopes, scopes.of[i]);
    if (!bound) return null;
    if (hasColumn(schema, bound.table, missing.column)) continue; // this one reads a table that has it
    const owners = sources.filter((s) => s.scope === bound.scope && hasColumn(schema, s.table, missing.column));
    if (owners.length !== 1 || owners[0].token.kind !== 'word') return null;
    const ownerRef = written(sql, owners[0].token);
    if (resolve(ownerRef, sources, scopes, scopes.of[i]) !== owners[0]) return null;
    edits.push({ start: q.start, length: written(sql, q).length, text: ownerRef });
  }
  return edits.length ? edits : null;
}

function applyEdits(sql: string, edits: Edit[]): string {
  let out = '';
  let at = 0;
  for (const { start, length, text } of [...edits].sort((a, b) => a.start - b.start)) {
    out += sql.slice(at, start) + text;
    at = start + length;
  }
  return out + sql.slice(at);
}

const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]);
