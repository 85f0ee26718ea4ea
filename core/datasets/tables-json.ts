import type { DatasetSchema } from './benchmark-question';

/** One entry of Spider's tables.json / BIRD's dev_tables.json (the fields read here). */
interface TablesJsonEntry {
  db_id: string;
  table_names_original: string[];
  column_names_original: [number, string][];
}

/** Schemas by db_id; column -1 (`*`) belongs to no table and is skipped. */
export function parseTablesJson(entries: TablesJsonEntry[]): Record<string, DatasetSchema> {
  const schemas: Record<string, DatasetSchema> = {};
  for (const entry of entries) {
    const tables = entry.table_names_original.map((name) => ({ name, columns: [] as string[] }));
    for (const [table, column] of entry.column_names_original) if (table >= 0) tables[table].columns.push(column);
    schemas[entry.db_id] = { tables };
  }
  return schemas;
}
