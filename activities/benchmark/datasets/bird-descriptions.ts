import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from '../../../core/datasets/csv';

/** One row of a BIRD `database_description/<table>.csv`. */
export interface ColumnDescription {
  column: string;
  /** The expanded column name, when the file gives one. */
  columnName: string;
  description: string;
  dataFormat: string;
  valueDescription: string;
}

/** Table name (the file name) -> its column descriptions. */
export type DatabaseDescriptions = Record<string, ColumnDescription[]>;

/** Some BIRD description files are not UTF-8 (Windows-1252): decode strictly, else as Latin-1. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return bytes.toString('latin1');
  }
}

/** Reads `<databaseFolder>/database_description/*.csv`; an absent folder gives no descriptions. */
export function loadBirdDescriptions(databaseFolder: string): DatabaseDescriptions {
  const dir = path.join(databaseFolder, 'database_description');
  if (!existsSync(dir)) return {};
  const result: DatabaseDescriptions = {};
  for (const file of readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.csv'))
    .sort()) {
    const [header, ...rows] = parseCsv(decode(readFileSync(path.join(dir, file))));
    if (!header) continue;
    const at = (name: string) => header.findIndex((h) => h.trim().toLowerCase() === name);
    const cols = [at('original_column_name'), at('column_name'), at('column_description'), at('data_format'), at('value_description')];
    const cell = (row: string[], i: number) => (i >= 0 ? (row[i] ?? '').trim() : '');
    result[file.replace(/\.csv$/i, '')] = rows.map((row) => ({
      column: cell(row, cols[0]),
      columnName: cell(row, cols[1]),
      description: cell(row, cols[2]),
      dataFormat: cell(row, cols[3]),
      valueDescription: cell(row, cols[4]),
    }));
  }
  return result;
}
