import { parseCsv } from '../datasets/csv';

/**
 * Developer-provided documentation merged into column profiles (§3.1.1: "When available, the
 * profile also contains developer-provided column descriptions, value notes, and any other
 * human provided documentation"). Two input forms:
 *
 * - BIRD's `database_description/<table>.csv`, columns `original_column_name, column_name,
 *   column_description, data_format, value_description`;
 * - a JSON file: `{"tables": {"<table>": {"description": "...", "columns": {"<column>":
 *   {"description": "...", "values": "...", "format": "...", "fullName": "..."}}}}}`.
 *
 * Table and column names are matched case-insensitively and with surrounding spaces ignored
 * (BIRD's files have both kinds of drift).
 */
export interface ColumnDocumentation {
  /** The column's name spelled out (BIRD's `column_name`). */
  fullName?: string;
  description?: string;
  /** Declared or intended data format, as the author wrote it. */
  format?: string;
  /** What the values mean (codes, units, how NULL is used). */
  values?: string;
}

export interface TableDocumentation {
  description?: string;
  columns: Record<string, ColumnDocumentation>;
}

export interface DatabaseDocumentation {
  /** Keyed by normalised table name (see `docName`). */
  tables: Record<string, TableDocumentation>;
}

export function docName(name: string): string {
  return name.trim().toLowerCase();
}

const BIRD_FIELDS: Partial<Record<string, keyof ColumnDocumentation>> = Object.assign(Object.create(null), {
  column_name: 'fullName',
  column_description: 'description',
  data_format: 'format',
  value_description: 'values',
});

/** One BIRD description CSV (one table) as column documentation keyed by normalised name. */
export function parseBirdDescriptionCsv(text: string): Record<string, ColumnDocumentation> {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header) return {};
  const names = header.map(docName);
  const nameAt = names.indexOf('original_column_name');
  if (nameAt < 0) throw new Error('not a BIRD description file: no original_column_name column');
  const columns: Record<string, ColumnDocumentation> = {};
  for (const row of rows) {
    const column = row[nameAt]?.trim();
    if (!column) continue;
    const doc: ColumnDocumentation = {};
    names.forEach((name, i) => {
      const field = BIRD_FIELDS[name];
      const value = cleanText(row[i]);
      if (field && value) doc[field] = value;
    });
    columns[docName(column)] = doc;
  }
  return columns;
}

/** The JSON form, checked: a wrong shape is an error naming where, not silently no docs. */
export function parseJsonDocumentation(json: unknown): DatabaseDocumentation {
  const tables = (json as { tables?: unknown })?.tables;
  if (!isObject(tables)) throw new Error('documentation JSON needs a "tables" object');
  const result: DatabaseDocumentation = { tables: {} };
  for (const [table, value] of Object.entries(tables)) {
    if (!isObject(value)) throw new Error(`documentation of table ${table} must be an object`);
    const columns: Record<string, ColumnDocumentation> = {};
    for (const [column, doc] of Object.entries(isObject(value.columns) ? value.columns : {})) {
      if (typeof doc === 'string') {
        columns[docName(column)] = { description: doc };
        continue;
      }
      if (!isObject(doc)) throw new Error(`documentation of ${table}.${column} must be a string or an object`);
      const entry: ColumnDocumentation = {};
      for (const field of ['fullName', 'description', 'format', 'values'] as const) {
        const text = cleanText(doc[field]);
        if (text) entry[field] = text;
      }
      columns[docName(column)] = entry;
    }
    const description = cleanText(value.description);
    result.tables[docName(table)] = { ...(description ? { description } : {}), columns };
  }
  return result;
}

// Own properties only: a table or column named "constructor" must not find Object.prototype's.
export function tableDocumentation(docs: DatabaseDocumentation | null, table: string): TableDocumentation | null {
  return docs && Object.hasOwn(docs.tables, docName(table)) ? docs.tables[docName(table)] : null;
}

export function columnDocumentation(docs: DatabaseDocumentation | null, table: string, column: string): ColumnDocumentation | null {
  const columns = tableDocumentation(docs, table)?.columns;
  const doc = columns && Object.hasOwn(columns, docName(column)) ? columns[docName(column)] : undefined;
  return doc && Object.keys(doc).length > 0 ? doc : null;
}

function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text || undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
