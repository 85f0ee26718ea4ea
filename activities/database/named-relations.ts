import type { SqlRow, SqlValue } from '../../core/sql-value';
import { prependCtes } from '../../core/dag/prepend-ctes';
import { quoteIdentifier } from './sql-identifiers';
import type { Dialect } from '../../core/database/schema-types';

/**
 * Rows decodex hands to a query as a relation of their own (DecoSearch's materialized upstream
 * result, §3.5 and appendix A.3). The paper creates a TEMP table; decodex never lets anything be
 * created on a user's connection (query_only sessions, read-only transactions), so its executor
 * prepends a common table expression instead, over the rows bound as one JSON parameter:
 * SQLite reads it with json_each(?), MySQL 8 and MariaDB ≥ 10.6 with JSON_TABLE over a session
 * variable the executor sets with a bound value first (mysql2 would otherwise substitute every
 * `?` of the generated SQL, string literals included), PostgreSQL with json_to_recordset($k)
 * over the rows as objects (`{"c0": ..., "c1": ...}`), which names and types each column. The
 * generated SQL passes the statement guard before the prefix is added; the prefix is decodex's
 * own code.
 */
export interface NamedRelation {
  /** `n<k>` for node k. */
  name: string;
  columns: string[];
  rows: SqlRow[];
}

export interface SqlWithParams {
  sql: string;
  /** One JSON text per relation: SQLite binds them to the `?`s, PostgreSQL to `$1`, `$2`, ..., MySQL sets them as `@decodex_relation_<i>` first. */
  params: string[];
}

/** The session variable that carries relation i's rows on MySQL. */
export const mysqlRelationVariable = (i: number) => `@decodex_relation_${i}`;

const RELATION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function withNamedRelations(sql: string, relations: NamedRelation[], dialect: Dialect): SqlWithParams {
  if (!relations.length) return { sql, params: [] };
  const defs = relations.map((r, i) => relationCte(r, dialect, i));
  const params = relations.map((r) => rowsAsJson(r.rows, dialect === 'postgres'));
  return { sql: prependCtes(sql, defs), params };
}

function relationCte(relation: NamedRelation, dialect: Dialect, index: number): string {
  if (!RELATION_NAME.test(relation.name)) throw new Error(`invalid relation name ${JSON.stringify(relation.name)}`);
  if (!relation.columns.length) throw new Error(`relation ${relation.name} has no columns`);
  // PostgreSQL folds unquoted names to lower case, so the model's `n3.ID` means `n3.id`: the
  // relation's columns are named as its results would be (a PostgreSQL result's usually are already).
  const names = relation.columns.map((c) => quoteIdentifier(dialect === 'postgres' ? c.toLowerCase() : c, dialect)).join(', ');
  if (dialect === 'sqlite') {
    const cells = relation.columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
    return `${relation.name}(${names}) AS (SELECT ${cells} FROM json_each(?))`;
  }
  const kinds = relation.columns.map((_, i) => columnKind(relation.rows.map((r) => r[i] ?? null)));
  const cells = kinds.map((_, i) => `c${i}`).join(', ');
  if (dialect === 'postgres') {
    const columns = kinds.map((k, i) => `c${i} ${POSTGRES_TYPES[k]}`).join(', ');
    return `${relation.name}(${names}) AS (SELECT ${cells} FROM json_to_recordset($${index + 1}::json) AS ${relation.name}_rows(${columns}))`;
  }
  const columns = kinds.map((k, i) => `c${i} ${MYSQL_TYPES[k]} PATH '$[${i}]'`).join(', ');
  return `${relation.name}(${names}) AS (SELECT ${cells} FROM JSON_TABLE(${mysqlRelationVariable(index)}, '$[*]' COLUMNS (${columns})) AS ${relation.name}_rows)`;
}

type ColumnKind = 'integer' | 'real' | 'text';
const MYSQL_TYPES: Record<ColumnKind, string> = { integer: 'BIGINT', real: 'DOUBLE', text: 'LONGTEXT' };
/** numeric, not bigint: a whole number past 64 bits still fits. */
const POSTGRES_TYPES: Record<ColumnKind, string> = { integer: 'numeric', real: 'double precision', text: 'text' };

/** JSON_TABLE and json_to_recordset need a type per column: whole numbers stay integers, other numbers doubles, the rest text. */
function columnKind(values: SqlValue[]): ColumnKind {
  const present = values.filter((v) => v !== null);
  if (present.length && present.every((v) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'object' && v !== null && 'int' in v)))
    return 'integer';
  if (present.length && present.every((v) => typeof v === 'number')) return 'real';
  return 'text';
}

/**
 * One JSON array of rows, each an array (or, for json_to_recordset, an object with keys c0, c1,
 * ...); big integers keep every digit, bytes travel as base64 text.
 */
function rowsAsJson(rows: SqlRow[], asObjects: boolean): string {
  const cell = (v: SqlValue): string => {
    if (v === null) return 'null';
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
    if (typeof v === 'string') return JSON.stringify(v);
    if ('int' in v) return /^-?\d+$/.test(v.int) ? v.int : JSON.stringify(v.int);
    return JSON.stringify(v.bytes);
  };
  const row = (r: SqlRow) => (asObjects ? `{${r.map((v, i) => `"c${i}":${cell(v)}`).join(',')}}` : `[${r.map(cell).join(',')}]`);
  return `[${rows.map(row).join(',')}]`;
}
