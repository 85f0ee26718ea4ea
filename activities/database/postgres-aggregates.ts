import type { AggregateForms } from '../../core/database/aggregate-forms';

/**
 * PostgreSQL's MIN and MAX exist for these types only (pg_aggregate; varchar reaches text's);
 * SQLite and MySQL order anything, so Spider's BLOB column (sakila_1's staff.picture), a
 * PostgreSQL bytea, stopped its profile.
 */
const MIN_MAX = new Set([
  'smallint',
  'integer',
  'bigint',
  'real',
  'double precision',
  'numeric',
  'money',
  'text',
  'character varying',
  'character',
  'date',
  'time without time zone',
  'time with time zone',
  'timestamp without time zone',
  'timestamp with time zone',
  'interval',
  'inet',
  'oid',
  'pg_lsn',
]);

/** Types with no equality operator: no DISTINCT, no GROUP BY. Their text is compared instead. */
const NO_EQUALITY = new Set(['json', 'xml', 'point', 'line', 'lseg', 'box', 'path', 'polygon', 'circle']);

/**
 * The forms of a column of the PostgreSQL type `type` (as format_type writes it:
 * `character varying(20)`, `integer[]`, `timestamp(3) without time zone`):
 * - boolean: MIN and MAX as bool_and and bool_or (read as 0 and 1, as MySQL's and SQLite's);
 * - a type with no MIN and MAX (bytea, uuid, jsonb, ranges, enums, ...): none;
 * - a type with no equality (json, xml, geometry): its text, for counting and grouping too.
 * Arrays as their element type.
 */
export function postgresAggregateForms(quoted: string, type: string): AggregateForms {
  const base = type
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const element = base.replace(/(\[\])+$/, '');
  if (NO_EQUALITY.has(element)) return { value: `${quoted}::text`, min: 'NULL', max: 'NULL' };
  if (base === 'boolean') return { value: quoted, min: `bool_and(${quoted})`, max: `bool_or(${quoted})` };
  if (MIN_MAX.has(element)) return { value: quoted, min: `MIN(${quoted})`, max: `MAX(${quoted})` };
  return { value: quoted, min: 'NULL', max: 'NULL' };
}
