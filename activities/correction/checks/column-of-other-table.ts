import type { Finding } from '../../../core/correction/finding';
import type { SchemaInfo } from '../../../core/database/schema-types';
import { tokensOrNull, type SqlToken } from '../../database/sql-tokens';
import type { CheckInput } from './check-input';
import { distinct, hasColumn, same } from './query-tables';
import { lookupJoin } from './lookup-join';
import {
  applyEdits,
  inReach,
  nearest,
  qualifiedUses,
  refOf,
  resolve,
  selectScopes,
  tableSources,
  written,
  type Edit,
  type Scopes,
  type TableSource,
} from './query-scopes';

/**
 * The database refused a column named through a table that does not have it: `T2.Name` where T2
 * is `hiring` and `Name` is a column of `shop`. It is the commonest error of a small model that
 * joins tables (it writes the right column with the wrong alias), and told only "no such column:
 * T2.Name" it writes the same again. The finding says which table the qualifier stands for and
 * which table of the query has the column; when the query does not read one, which table of the
 * schema does. An unqualified column that no table of the query has (`SELECT Cylinders FROM
 * car_names`) gets the tables of the schema that have it. So does a qualifier that names no table
 * of the query (`T4.x` where no T4 was given; `orchestra.x` where orchestra is aliased T2): the
 * model lost track of its aliases. Names compare case-blind; a misspelt column is `unknown-name`'s.
 *
 * The rewrite (`fix`) is offered only when plain code is sure, reading scopes as SQL does (each
 * SELECT is one, a subquery sees the aliases of the SELECTs around it, the branches of a UNION,
 * INTERSECT or EXCEPT see only their own): every `qualifier.column` whose qualifier resolves to a
 * table without the column is in reach of exactly one table, read once in the qualifier's own
 * SELECT (for a qualifier that names no table: in the nearest SELECT around it that has one), that
 * has the column, and that table's alias (or name) resolves to it where the column is
 * written (no inner SELECT reuses it). When the query reads no table that has it, the one table
 * of the schema that has it may be where a foreign key of the qualifier's table leads: that table
 * is joined (lookup-join.ts). `correction.qualifierFixes` decides whether either is applied.
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
  const has = (s: TableSource) => hasColumn(schema, s.table, missing.column);
  // The tables the qualifier stands for that lack the column (one per SELECT that binds it), or,
  // when it stands for no table of the query (an alias never given, a table name under its alias),
  // the whole query is where the column is looked for.
  const named = sources.filter((s) => same(refOf(s), qualifier));
  const lacking = named.filter((s) => !has(s));
  if (named.length && !lacking.length) return null;
  const aliased = sources.find((s) => s.alias && same(s.table, qualifier));
  const stands = !named.length
    ? aliased
      ? `${aliased.table} is aliased ${aliased.alias} in the query, so ${qualifier}.${missing.column} names nothing`
      : `the query reads no table named or aliased ${qualifier} to read ${missing.column} from`
    : same(lacking[0].table, qualifier)
      ? `${lacking[0].table} has no column ${missing.column}`
      : `${qualifier} (${lacking[0].table}) has no column ${missing.column}`;
  const owners = (named.length ? inReach(sources, scopes, lacking[0].scope) : sources).filter(has);
  const ownerTables = distinct(owners.map((s) => s.table));
  if (!ownerTables.length) {
    const told = unreadHolders(schema, missing.column, stands);
    const fix = told && named.length ? lookupJoin(input.sql, tokens, schema, scopes, sources, { qualifier, column: missing.column }) : null;
    return told && (fix ? { ...told, fix } : told);
  }
  const refs = ownerTables.map((t) => owners.find((s) => s.table === t)!).map((s) => (s.alias ? `${s.table} (${s.alias})` : s.table));
  const message = `${stands}; ${listed(refs)} of the query ${ownerTables.length > 1 ? 'have' : 'has'} it: qualify it with that table`;
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
  for (const i of qualifiedUses(tokens, missing.qualifier, missing.column)) {
    const bound = resolve(missing.qualifier, sources, scopes, scopes.of[i]);
    if (bound && hasColumn(schema, bound.table, missing.column)) continue; // this one reads a table that has it
    // Bound somewhere, just not here: which table was meant is not plain code's call.
    if (!bound && sources.some((s) => same(refOf(s), missing.qualifier))) return null;
    // The tables that could be meant: those of the qualifier's SELECT; with no qualifier to go by,
    // those of the nearest SELECT around the column that has any (as SQL reads a bare column).
    const owners = bound
      ? sources.filter((s) => s.scope === bound.scope && hasColumn(schema, s.table, missing.column))
      : nearest(sources, scopes, scopes.of[i], (s) => hasColumn(schema, s.table, missing.column));
    if (owners.length !== 1 || owners[0].token.kind !== 'word') return null;
    const ownerRef = written(sql, owners[0].token);
    if (resolve(ownerRef, sources, scopes, scopes.of[i]) !== owners[0]) return null;
    edits.push({ start: tokens[i].start, length: written(sql, tokens[i]).length, text: ownerRef });
  }
  return edits.length ? edits : null;
}

const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]);
