import type { Finding } from '../../../core/correction/finding';
import type { SchemaInfo } from '../../../core/database/schema-types';
import { respellName } from '../respell-name';
import type { CheckInput } from './check-input';

/**
 * The database named a column or table that does not exist, and the schema has one spelled
 * almost the same way: the finding names it. Small models write names by analogy (`pet_type`
 * beside `pet_age` where the column is `PetType`) and, told only "no such column", write the same
 * name again; told the schema's spelling, they take it. Names compare case-, underscore- and
 * space-blind, then by at most two edits for names of five letters or more.
 */
export function unknownName(input: CheckInput): Finding | null {
  if (input.execution.ok) return null;
  const missing = missingName(input.execution.message);
  if (!missing) return null;
  const candidates = missing.kind === 'column' ? columnNames(input.schema) : input.schema.tables.map((t) => t.name);
  // SQLite's names and MySQL's column names ignore case: a name the schema has but for case was not
  // misspelt but read through the wrong table (column-of-other-table says which), and respelling it fixes nothing.
  const caseBlind = input.schema.dialect === 'sqlite' || (input.schema.dialect === 'mysql' && missing.kind === 'column');
  const matches = closest(missing.name, candidates, caseBlind);
  if (!matches.length) return missing.kind === 'column' ? tablePrefixed(input, missing.name) : null;
  const message = `there is no ${missing.kind} ${missing.name}; the schema spells it ${matches.join(' or ')}`;
  // One column spelt the same but for case and underscores: plain code can rewrite it.
  const [only] = matches;
  const column = only.slice(only.lastIndexOf('.') + 1);
  const sure = missing.kind === 'column' && matches.length === 1 && squash(column) === squash(missing.name) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(column);
  const sql = sure ? respellName(input.sql, input.schema.dialect, missing.name, column) : null;
  return { check: 'unknown-name', severity: 'error', message, ...(sql ? { fix: { sql, description: `${missing.name} → ${column}` } } : {}) };
}

/**
 * A column written with its table's name in front (`People_Name`, `singer_name`, `studentAge`)
 * where that table has the column (`people.Name`): a small model's way of saying which table's
 * name it means. Told only "no such column", it writes the same again. Plain code respells it
 * when exactly one table and column read so (the table's name as spelt or without a plural s or es);
 * when the query reads that table through another alias, `column-of-other-table` requalifies it
 * next.
 */
function tablePrefixed(input: CheckInput, name: string): Finding | null {
  const target = squash(name);
  const prefixes = (table: string) => [squash(table), squash(table).replace(/s$/, ''), squash(table).replace(/es$/, '')];
  const readings = input.schema.tables.flatMap((t) =>
    t.columns
      .filter((c) => squash(c.name).length >= 2 && prefixes(t.name).some((prefix) => prefix + squash(c.name) === target))
      .map((c) => ({ table: t.name, column: c.name })),
  );
  if (!readings.length) return null;
  const listed = readings.slice(0, 3).map((r) => `${r.table}.${r.column}`);
  const message = `there is no column ${name}; the schema has ${listed.join(' or ')} (the table's name, then its column)`;
  const [only] = readings;
  const sure = readings.length === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(only.column);
  const sql = sure ? respellName(input.sql, input.schema.dialect, name, only.column) : null;
  return { check: 'unknown-name', severity: 'error', message, ...(sql ? { fix: { sql, description: `${name} → ${only.column}` } } : {}) };
}

/** SQLite's and MySQL's wording of a missing column or table; the name without its qualifier. */
function missingName(message: string): { kind: 'column' | 'table'; name: string } | null {
  const named = (kind: 'column' | 'table', raw: string) => {
    const name = raw.replace(/^[`"[]|[`"\]]$/g, '');
    return { kind, name: name.slice(name.lastIndexOf('.') + 1) };
  };
  const sqlite = /no such (column|table): ([^\s,;]+)/i.exec(message);
  if (sqlite) return named(sqlite[1].toLowerCase() as 'column' | 'table', sqlite[2]);
  const mysqlColumn = /Unknown column '([^']+)'/i.exec(message);
  if (mysqlColumn) return named('column', mysqlColumn[1]);
  const mysqlTable = /Table '([^']+)' doesn't exist/i.exec(message);
  return mysqlTable ? named('table', mysqlTable[1]) : null;
}

function columnNames(schema: SchemaInfo): string[] {
  return schema.tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}`));
}

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The candidates (`table.column` or `table`) whose last part is spelled like `name`: exact after
 * squashing, else within two edits; never `name` itself (case aside when `caseBlind`).
 */
function closest(name: string, candidates: string[], caseBlind: boolean): string[] {
  const target = squash(name);
  const last = (c: string) => squash(c.slice(c.lastIndexOf('.') + 1));
  const same = (a: string, b: string) => (caseBlind ? a.toLowerCase() === b.toLowerCase() : a === b);
  const exact = candidates.filter((c) => last(c) === target && !same(c.slice(c.lastIndexOf('.') + 1), name));
  if (exact.length) return exact.slice(0, 3);
  if (target.length < 5) return [];
  return candidates.filter((c) => editDistanceAtMost(last(c), target, 2)).slice(0, 3);
}

function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...current) > limit) return false;
    previous = current;
  }
  return previous[b.length] <= limit && previous[b.length] > 0;
}
