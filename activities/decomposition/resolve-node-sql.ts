import { replacePlaceholders } from '../../core/dag/placeholders';
import { relationName, type NodeResultRef, type StoredNodeResult } from '../../core/dag/node-results';
import type { SqlValue } from '../../core/sql-value';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { NamedRelation } from '../database/named-relations';
import type { Dialect } from '../../core/database/schema-types';

/** An upstream node's summary with its stored rows. */
export interface LoadedUpstream {
  ref: NodeResultRef;
  rows: StoredNodeResult;
}

/**
 * Resolves the `@[n]` placeholders of a node's SQL (DecoSearch appendix A.3), in decodex's
 * executor code: an inline result becomes a parenthesised list of its first column's values
 * (`IN @[1]`, `= @[2]`, `CAST(@[1] AS REAL)` all read naturally), a large one the relation `n<k>`
 * (`IN @[3]` becomes `IN (SELECT <first column> FROM n3)`). An empty result is `(NULL)`, which
 * matches nothing.
 */
export function resolveNodeSql(sql: string, upstream: Map<number, LoadedUpstream>, dialect: Dialect): string {
  return replacePlaceholders(sql, (id, before) => {
    const u = upstream.get(id);
    if (!u) throw new Error(`the SQL uses @[${id}], but node ${id} is not one of this step's inputs`);
    if (u.ref.passedAs === 'relation') {
      const name = relationName(id);
      return /\bin\s*$/i.test(before) ? `(SELECT ${quoteIdentifier(u.ref.columns[0], dialect)} FROM ${name})` : name;
    }
    const values = u.rows.rows.map((r) => sqlLiteral(r[0] ?? null, dialect));
    return `(${values.length ? values.join(', ') : 'NULL'})`;
  });
}

/** The relations a node's query may read: its relation-passed inputs, columns named uniquely. */
export function relationsFor(upstream: Map<number, LoadedUpstream>): NamedRelation[] {
  return [...upstream.values()]
    .filter((u) => u.ref.passedAs === 'relation')
    .map((u) => ({ name: relationName(u.ref.id), columns: uniqueColumnNames(u.ref.columns), rows: u.rows.rows }));
}

/** Result columns as relation columns: `COUNT(*)` twice must not make two columns of one name. */
export function uniqueColumnNames(columns: string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c, i) => {
    const base = c.trim() || `column_${i + 1}`;
    const n = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** A value as a SQL literal of the dialect (MySQL also escapes backslashes in strings). */
export function sqlLiteral(v: SqlValue, dialect: Dialect): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'string') {
    const escaped = v.replaceAll("'", "''");
    return `'${dialect === 'mysql' ? escaped.replaceAll('\\', '\\\\') : escaped}'`;
  }
  if ('int' in v) return /^-?\d+$/.test(v.int) ? v.int : 'NULL';
  return `X'${Buffer.from(v.bytes, 'base64').toString('hex')}'`;
}
