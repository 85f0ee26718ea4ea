import path from 'node:path';
import type { BenchmarkQuestion, LoadedDataset } from '../../../core/datasets/benchmark-question';
import { parseTablesJson } from '../../../core/datasets/tables-json';
import { loadBirdDescriptions } from './bird-descriptions';
import { datasetDatabase } from './dataset-databases';
import { readJsonFile } from './dataset-files';

interface BirdItem {
  question_id?: number;
  db_id: string;
  question: string;
  evidence?: string;
  SQL: string;
  difficulty?: string;
}

const SPLITS = {
  'bird-dev': 'dev.json',
  'bird-mini-dev': path.join('mini_dev', 'mini_dev_sqlite.json'),
} as const;

export type BirdSplit = keyof typeof SPLITS;

/**
 * BIRD dev (1534 questions) or Mini-Dev (500, SQLite dialect): question, evidence, gold SQL and
 * difficulty from the JSON file, schemas from dev_tables.json, column descriptions from the
 * per-database CSVs. BIRD's SQLite databases are large and not always present: questions over a
 * missing one are marked later (load-dataset.ts) and the rest runs.
 */
export function loadBird(root: string, split: BirdSplit, options: { databaseDir?: string } = {}): LoadedDataset {
  const dir = path.join(root, 'bird');
  const items = readJsonFile<BirdItem[]>(path.join(dir, SPLITS[split]));
  const databaseDir = options.databaseDir ?? path.join(dir, 'dev_databases');
  const questions: BenchmarkQuestion[] = items.map((item, index) => ({
    index,
    id: String(item.question_id ?? index),
    question: item.question,
    ...(item.evidence ? { evidence: item.evidence } : {}),
    goldSql: item.SQL,
    dbId: item.db_id,
    database: datasetDatabase(databaseDir, item.db_id),
    evaluationDatabases: [],
    ...(item.difficulty ? { difficulty: item.difficulty } : {}),
  }));

  let descriptionTables = 0;
  let describedColumns = 0;
  for (const dbId of new Set(items.map((i) => i.db_id))) {
    const descriptions = loadBirdDescriptions(path.join(dir, 'dev_databases', dbId));
    descriptionTables += Object.keys(descriptions).length;
    describedColumns += Object.values(descriptions).reduce((n, cols) => n + cols.length, 0);
  }
  return {
    name: split,
    evaluator: 'bird',
    questions,
    schemas: parseTablesJson(readJsonFile(path.join(dir, 'dev_tables.json'))),
    missingDatabases: [],
    notes: { description_tables: descriptionTables, described_columns: describedColumns },
  };
}
