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
 * The rewrite (`fix`) is offered only when plain code is sure: in each branch of the query (a
 * UNION, INTERSECT or EXCEPT has several, each its own scope) where the qualifier stands for a
 * table without the column, that branch is a single SELECT (no subquery whose aliases could be
 * in another scope) with exactly one table, read once, that has the column.
 * `correction.qualifierFixes` decides whether it is applied.
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
  // The branches where the qualifier stands for one table, and that table lacks the column.
  const wrong = topLevelBranches(tokens)
    .map((branch) => ({ tokens: branch, sources: tableSources(input.sql, branch, schema) }))
    .map((b) => ({ ...b, bound: distinct(b.sources.filter((s) => same(s.alias ?? s.table, qualifier)).map((s) => s.table)) }))
    .filter((b) => b.bound.length === 1 && !hasColumn(schema, b.bound[0], missing.column))
    .map((b) => ({ ...b, owners: distinct(b.sources.map((s) => s.table)).filter((t) => hasColumn(schema, t, missing.column)) }));
  if (!wrong.length) return null;
  const [first] = wrong;
  const stands = same(first.bound[0], qualifier) ? first.bound[0] : `${qualifier} (${first.bound[0]})`;
  if (!first.owners.length) return unreadHolders(schema, missing.column, `${stands} has no column ${missing.column}`);
  const refs = first.owners.map((t) => first.sources.find((s) => s.table === t)!).map((s) => (s.alias ? `${s.table} (${s.alias})` : s.table));
  const message = `${stands} has no column ${missing.column}; ${listed(refs)} of the query ${first.owners.length > 1 ? 'have' : 'has'} it: qualify it with that table`;
  const rewrites = wrong.map((b) => sureRewrite(input.sql, b.tokens, b.sources, b.owners, { qualifier, column: missing.column }));
  const sure = rewrites.every((r) => r !== null) ? (rewrites as Rewrite[]) : null;
  const sql = sure ? applyRewrites(input.sql, sure) : null;
  const to = [...new Set((sure ?? []).map((r) => `${r.ownerRef}.${missing.column}`))].join(', ');
  return {
    check: 'column-of-other-table',
    severity: 'error',
    message,
    ...(sql ? { fix: { sql, description: `${qualifier}.${missing.column} → ${to}` } } : {}),
  };
}

/** An unqualified column no table of the query has: which tables of the schema have it. */
function columnOfUnreadTable(sql: string, tokens: SqlToken[], schema: SchemaInfo, column: string): Finding | null {
  const read = distinct(tableSources(sql, tokens, schema).map((s) => s.table));
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
}

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
function tableSources(sql: string, tokens: SqlToken[], schema: SchemaInfo): TableSource[] {
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
    sources.push(isAlias ? { table, alias: written(sql, aliasToken), token: aliasToken } : { table, alias: null, token: tokens[at] });
  }
  return sources;
}

/** A word as the query spells it; a quoted name without its quotes. */
function written(sql: string, token: SqlToken): string {
  // Not `upper.length`: upper-casing can change a length ('ß' → 'SS').
  if (token.kind === 'word') return WORD.exec(sql.slice(token.start))?.[0] ?? token.upper;
  return token.kind === 'quoted' ? token.upper : '';
}

/** In one branch: where its `qualifier.column` words start and how long the qualifier is, and what replaces it. */
interface Rewrite {
  ownerRef: string;
  qualifiers: { start: number; length: number }[];
}

/** The rewrite of one branch (the owner by its alias, else its name), or null unless plain code is sure (see above). */
function sureRewrite(
  sql: string,
  tokens: SqlToken[],
  sources: TableSource[],
  owners: string[],
  missing: { qualifier: string; column: string },
): Rewrite | null {
  const selects = tokens.filter((t) => t.kind === 'word' && t.upper === 'SELECT').length;
  const ownerSources = owners.length === 1 ? sources.filter((s) => s.table === owners[0]) : [];
  if (selects !== 1 || ownerSources.length !== 1 || ownerSources[0].token.kind !== 'word') return null;
  const qualifiers: Rewrite['qualifiers'] = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [q, dot, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (
      q.kind === 'word' &&
      dot.kind === 'symbol' &&
      dot.text === '.' &&
      c.kind === 'word' &&
      same(q.upper, missing.qualifier) &&
      same(c.upper, missing.column)
    ) {
      qualifiers.push({ start: q.start, length: written(sql, q).length });
    }
  }
  return qualifiers.length ? { ownerRef: written(sql, ownerSources[0].token), qualifiers } : null;
}

function applyRewrites(sql: string, rewrites: Rewrite[]): string {
  const edits = rewrites.flatMap((r) => r.qualifiers.map((q) => ({ ...q, text: r.ownerRef }))).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, length, text } of edits) {
    out += sql.slice(at, start) + text;
    at = start + length;
  }
  return out + sql.slice(at);
}

const SET_OPERATORS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

/** The query's branches: its tokens split at UNION, INTERSECT and EXCEPT outside parentheses. */
function topLevelBranches(tokens: SqlToken[]): SqlToken[][] {
  const branches: SqlToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'symbol' && t.text === '(') depth++;
    if (t.kind === 'symbol' && t.text === ')') depth--;
    if (depth === 0 && t.kind === 'word' && SET_OPERATORS.has(t.upper)) branches.push([]);
    else branches[branches.length - 1].push(t);
  }
  return branches;
}

const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]);
