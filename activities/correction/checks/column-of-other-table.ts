import type { Finding } from '../../../core/correction/finding';
import type { SchemaInfo } from '../../../core/database/schema-types';
import { tokensOrNull, type SqlToken } from '../../database/sql-tokens';
import type { CheckInput } from './check-input';
import { distinct, hasColumn, same } from './query-tables';
import { lookupJoin } from './lookup-join';
import { applyEdits, inReach, refOf, resolve, selectScopes, tableSources, written, type Edit, type Scopes, type TableSource } from './query-scopes';

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
  // The tables the qualifier stands for that lack the column (one per SELECT that binds it).
  const lacking = sources.filter((s) => same(refOf(s), qualifier) && !hasColumn(schema, s.table, missing.column));
  if (!lacking.length) return null;
  const [first] = lacking;
  const stands = same(first.table, qualifier) ? first.table : `${qualifier} (${first.table})`;
  const owners = inReach(sources, scopes, first.scope).filter((s) => hasColumn(schema, s.table, missing.column));
  const ownerTables = distinct(owners.map((s) => s.table));
  if (!ownerTables.length) {
    const told = unreadHolders(schema, missing.column, `${stands} has no column ${missing.column}`);
    const fix = told && lookupJoin(input.sql, tokens, schema, scopes, sources, { qualifier, column: missing.column });
    return told && (fix ? { ...told, fix } : told);
  }
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

const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]);
