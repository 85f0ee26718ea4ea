import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../../core/database/schema-types';
import { docName, parseBirdDescriptionCsv, parseJsonDocumentation, type DatabaseDocumentation } from '../../core/profiling/documentation';

/**
 * Reads developer documentation from the worker's file system (see core/profiling/documentation
 * for the formats). `explicit` is a folder of BIRD `<table>.csv` files, one such CSV, or a JSON
 * file; without it, a SQLite database's sibling `database_description/` folder is used when
 * present (BIRD's layout), so BIRD databases are documented with no flag.
 */
export function readDocumentation(
  explicit: string | undefined,
  databaseSpec: string,
  dialect: Dialect,
): { documentation: DatabaseDocumentation | null; source: string | null } {
  const source = explicit ?? (dialect === 'sqlite' ? siblingDescriptions(databaseSpec) : null);
  if (!source) return { documentation: null, source: null };
  if (!existsSync(source)) throw new Error(`documentation ${source} does not exist`);
  if (statSync(source).isDirectory()) {
    const docs: DatabaseDocumentation = { tables: {} };
    for (const file of readdirSync(source)
      .filter((f) => f.toLowerCase().endsWith('.csv'))
      .sort()) {
      docs.tables[docName(path.basename(file, path.extname(file)))] = { columns: parseBirdDescriptionCsv(readText(path.join(source, file))) };
    }
    return { documentation: docs, source };
  }
  if (source.toLowerCase().endsWith('.csv')) {
    const table = docName(path.basename(source, path.extname(source)));
    return { documentation: { tables: { [table]: { columns: parseBirdDescriptionCsv(readText(source)) } } }, source };
  }
  try {
    return { documentation: parseJsonDocumentation(JSON.parse(readText(source))), source };
  } catch (err) {
    throw new Error(`documentation ${source}: ${(err as Error).message}`);
  }
}

function siblingDescriptions(sqliteFile: string): string | null {
  const folder = path.join(path.dirname(path.resolve(sqliteFile)), 'database_description');
  return existsSync(folder) && statSync(folder).isDirectory() ? folder : null;
}

/** UTF-8 when the bytes are valid UTF-8, else Latin-1 (several BIRD files are Windows-1252). */
function readText(file: string): string {
  const bytes = readFileSync(file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}
