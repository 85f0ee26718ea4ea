import { isConnectionName, isServerUrl } from '../../../core/database-reference';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BenchmarkQuestion, LoadedDataset } from '../../../core/datasets/benchmark-question';

/** A dataset file as JSON, with an error that names the file and what to set when it is missing. */
export function readJsonFile<T>(file: string): T {
  if (!existsSync(file)) throw new Error(`dataset file ${file} not found (set DECODEX_DATASETS to the folder holding spider/ and bird/)`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (err) {
    throw new Error(`cannot parse ${file}: ${(err as Error).message}`);
  }
}

/** `SQL<TAB>db_id` per line, as Spider and BIRD ship their gold files. */
export function readGoldFile(file: string): { sql: string; dbId: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const tab = line.lastIndexOf('\t');
      return tab < 0 ? { sql: line.trim(), dbId: '' } : { sql: line.slice(0, tab).trim(), dbId: line.slice(tab + 1).trim() };
    });
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/**
 * The SQLite files a question is evaluated on: the database itself, plus, like exec_eval.py,
 * every other `.sqlite` file in its folder (test-suite variants, when present).
 */
export function sqliteVariants(databaseFile: string): string[] {
  const dir = path.dirname(databaseFile);
  const others = readdirSync(dir)
    .filter((name) => name.endsWith('.sqlite'))
    .map((name) => path.join(dir, name))
    .filter((file) => file !== databaseFile && isFile(file))
    .sort();
  return [databaseFile, ...others];
}

/**
 * Marks the questions whose database file is missing or empty (they are reported, not asked) and lists
 * those databases; every other question gets its evaluation databases: with `testSuiteVariants`
 * (Spider) every `.sqlite` file of its folder, otherwise the database alone.
 */
export function markMissingDatabases(questions: BenchmarkQuestion[], testSuiteVariants: boolean): LoadedDataset['missingDatabases'] {
  const missing = new Map<string, { dbId: string; path: string; questions: number }>();
  for (const q of questions) {
    // A server URL or a connection name: the worker resolves and opens it, there is no file to check.
    if (isServerUrl(q.database) || isConnectionName(q.database)) {
      q.evaluationDatabases = [q.database];
      continue;
    }
    const problem = !isFile(q.database) ? 'is missing' : statSync(q.database).size === 0 ? 'is empty' : null;
    if (problem === null) {
      q.evaluationDatabases = testSuiteVariants ? sqliteVariants(q.database) : [q.database];
      continue;
    }
    // An empty file is what opening a missing path read-write leaves behind: no data either way.
    q.notExecutable = `database file ${q.database} ${problem}`;
    q.evaluationDatabases = [];
    const entry = missing.get(q.database) ?? { dbId: q.dbId, path: q.database, questions: 0 };
    entry.questions++;
    missing.set(q.database, entry);
  }
  return [...missing.values()];
}
