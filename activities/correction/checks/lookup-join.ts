import type { Dialect, SchemaInfo } from '../../../core/database/schema-types';
import type { SqlToken } from '../../database/sql-tokens';
import { quote } from '../../../core/schema-text';
import { quoteIdentifier } from '../../database/sql-identifiers';
import { hasColumn, same } from './query-tables';
import { applyEdits, ENDS_FROM, qualifiedUses, resolve, written, type Edit, type Scopes, type TableSource } from './query-scopes';

/**
 * The rewrite for a column named through a table that lacks it when no table the query reads has
 * it, but the qualifier's table holds a foreign key to the one table of the schema that does:
 * `T2.size_description` where T2 is `Dogs`, `Dogs.size_code` references `Sizes`, and only `Sizes`
 * has `size_description`. The model meant the column the key leads to, and forgot the join (a
 * 1.5B model does this with lookup tables: a type's description, a paper's title through
 * `Authorship`). Plain code joins that table through the key under a new alias and reads the
 * column there.
 *
 * Only where it cannot change what the query counts: the key goes from the qualifier's table to
 * the holder (each row finds at most one row there, so no row is repeated; a key the other way
 * would repeat rows), it is the only key between them, every use of the qualifier with that column
 * resolves to that one table (as SQL scopes names), and the FROM clause that reads it is
 * built of JOINs (MySQL binds a comma list after its JOINs, so an ON clause appended to one could
 * not see its tables). The inner join drops a row whose key is NULL, as reading the column
 * through the key would have shown NULL: the fix is kept only when the SQL gets better.
 */
export function lookupJoin(
  sql: string,
  tokens: SqlToken[],
  schema: SchemaInfo,
  scopes: Scopes,
  sources: TableSource[],
  missing: { qualifier: string; column: string },
): { sql: string; description: string } | null {
  const holders = schema.tables.filter((t) => hasColumn(schema, t.name, missing.column));
  if (holders.length !== 1) return null;
  const [holder] = holders;
  // Every use of the qualifier with the column, and the one table they all resolve to.
  const uses = qualifiedUses(tokens, missing.qualifier, missing.column);
  let from: TableSource | null = null;
  for (const i of uses) {
    const bound = resolve(missing.qualifier, sources, scopes, scopes.of[i]);
    if (!bound || (from && bound !== from)) return null;
    from = bound;
  }
  if (!from || from.token.kind !== 'word' || same(from.table, holder.name)) return null;
  const keys = (schema.tables.find((t) => same(t.name, from.table))?.foreignKeys ?? []).filter((k) => same(k.toTable, holder.name));
  if (keys.length !== 1) return null;
  const toColumns = keys[0].toColumns.length ? keys[0].toColumns : holder.primaryKey;
  if (!keys[0].fromColumns.length || keys[0].fromColumns.length !== toColumns.length) return null;
  const end = fromClauseEnd(tokens, tokens.indexOf(from.token));
  if (end === null) return null;

  const alias = freshAlias(tokens);
  const fromRef = written(sql, from.token);
  const { dialect } = schema;
  const on = keys[0].fromColumns.map((c, k) => `${fromRef}.${name(c, dialect)} = ${alias}.${name(toColumns[k], dialect)}`).join(' AND ');
  const join = `JOIN ${name(holder.name, dialect)} AS ${alias} ON ${on}`;
  // Before the token that ends the FROM clause, or at the end: spaced as the text around it needs.
  const at = end < tokens.length ? tokens[end].start : sql.trimEnd().length;
  const before = /\s/.test(sql[at - 1] ?? ' ') ? '' : ' ';
  const after = /^[A-Za-z_]/.test(sql[at] ?? '') ? ' ' : '';
  const edits: Edit[] = [
    ...uses.map((i) => ({ start: tokens[i].start, length: written(sql, tokens[i]).length, text: alias })),
    { start: at, length: 0, text: `${before}${join}${after}` },
  ];
  return { sql: applyEdits(sql, edits), description: `${missing.qualifier}.${missing.column} → ${alias}.${missing.column}, ${join}` };
}

/**
 * Where the FROM clause that reads the table at `tableAt` ends: the index of the token that ends
 * it (the number of tokens at the end of the query), or null when it lists tables with commas.
 */
function fromClauseEnd(tokens: SqlToken[], tableAt: number): number | null {
  let depth = 0;
  for (let j = tableAt - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.kind === 'symbol' && t.text === ')') depth++;
    if (t.kind === 'symbol' && t.text === '(' && depth-- === 0) break;
    if (depth > 0) continue;
    if (t.kind === 'symbol' && t.text === ',') return null;
    if (t.kind === 'word' && t.upper === 'FROM') break;
  }
  depth = 0;
  for (let j = tableAt; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'symbol' && t.text === '(') depth++;
    if (t.kind === 'symbol' && t.text === ')' && depth-- === 0) return j;
    if (depth > 0) continue;
    if (t.kind === 'symbol' && t.text === ',') return null;
    if ((t.kind === 'symbol' && t.text === ';') || (t.kind === 'word' && ENDS_FROM.has(t.upper))) return j;
  }
  return tokens.length;
}

/** An alias no word of the query uses: T1, T2, ... */
function freshAlias(tokens: SqlToken[]): string {
  const words = new Set(tokens.flatMap((t) => (t.kind === 'word' || t.kind === 'quoted' ? [t.upper] : [])));
  let n = 1;
  while (words.has(`T${n}`)) n++;
  return `T${n}`;
}

/**
 * A name as the query can write it: as the schema shown to the model writes it (keywords quoted,
 * core/schema-text.ts), and quoted on PostgreSQL when it has capitals, which bare it would fold.
 */
function name(identifier: string, dialect: Dialect): string {
  return dialect === 'postgres' && identifier !== identifier.toLowerCase() ? quoteIdentifier(identifier, dialect) : quote(identifier, dialect);
}
