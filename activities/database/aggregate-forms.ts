import { postgresAggregateForms } from './postgres-aggregates';
import { quoteIdentifier } from './sql-identifiers';
import type { Dialect } from '../../core/database/schema-types';
import type { AggregateForms } from '../../core/database/aggregate-forms';

/**
 * The forms of the column `name` of declared type `type`. SQLite and MySQL order and compare any
 * value; PostgreSQL aggregates fewer types (postgres-aggregates.ts).
 */
export function aggregateForms(dialect: Dialect, name: string, type: string): AggregateForms {
  const id = quoteIdentifier(name, dialect);
  return dialect === 'postgres' ? postgresAggregateForms(id, type) : { value: id, min: `MIN(${id})`, max: `MAX(${id})` };
}
