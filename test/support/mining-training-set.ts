import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATASETS, spiderDatabasePath } from '../../devkit/datasets';

/**
 * A small real Spider training subset for mining tests: real train questions of two training
 * databases, plus ratio questions planted on the same real databases whose gold SQL casts to REAL
 * (the paper's running example of §3.1.4). `pathSql` says what the scripted generator's
 * divide-and-conquer path writes instead of the gold: the ratio without the cast (integer
 * division), a superlative without DESC, or a wrong column; the direct path writes the gold.
 */
export interface TrainingItem {
  question: string;
  sql: string;
  db_id: string;
  /** What the divide-and-conquer path writes instead (undefined: the gold). */
  wrong?: string;
}

const TRAIN_INDEXES = [0, 1, 2, 3, 5, 7, 8, 9, 16, 18, 24, 26, 30, 32, 40, 42];

export const PLANTED_RATIOS: TrainingItem[] = [
  {
    db_id: 'department_management',
    question: 'What is the ratio of departments with a budget above 10 billion to departments with at most 10 billion?',
    sql: 'SELECT CAST(SUM(budget_in_billions > 10) AS REAL) / SUM(budget_in_billions <= 10) FROM department',
    wrong: 'SELECT SUM(budget_in_billions > 10) / SUM(budget_in_billions <= 10) FROM department',
  },
  {
    db_id: 'department_management',
    question: 'What share of the department heads were born in California?',
    sql: "SELECT CAST(SUM(born_state = 'California') AS REAL) / COUNT(*) FROM head",
    wrong: "SELECT SUM(born_state = 'California') / COUNT(*) FROM head",
  },
  {
    db_id: 'farm',
    question: 'What is the ratio of cities with more than 1000 residents to the other cities?',
    sql: 'SELECT CAST(SUM(Population > 1000) AS REAL) / SUM(Population <= 1000) FROM city',
    wrong: 'SELECT SUM(Population > 1000) / SUM(Population <= 1000) FROM city',
  },
  {
    db_id: 'farm',
    question: 'What fraction of farms have more than 5000 horses?',
    sql: 'SELECT CAST(SUM(Total_Horses > 5000) AS REAL) / COUNT(*) FROM farm',
    wrong: 'SELECT SUM(Total_Horses > 5000) / COUNT(*) FROM farm',
  },
];

/** Real train questions whose divide-and-conquer candidate is planted wrong (by train index). */
const PLANTED_WRONG: Record<number, string> = {
  3: 'SELECT max(num_employees) ,  min(num_employees) FROM department', // wrong column: database-specific
  24: 'SELECT avg(Cows) FROM farm WHERE Total_Horses  >  5000', // wrong column: database-specific
  32: 'SELECT Official_Name ,  Status FROM city ORDER BY Population LIMIT 1', // DESC dropped: agnostic, but alone
};

export function miningTrainingItems(): TrainingItem[] {
  const train = JSON.parse(readFileSync(path.join(DATASETS, 'spider-syn', 'train_spider.json'), 'utf8')) as {
    db_id: string;
    SpiderQuestion: string;
    query: string;
  }[];
  const real = TRAIN_INDEXES.map((i) => ({ db_id: train[i].db_id, question: train[i].SpiderQuestion, sql: train[i].query, wrong: PLANTED_WRONG[i] }));
  return [...real, ...PLANTED_RATIOS];
}

/** Writes the items as a training JSONL file (databases by absolute path) and returns its path. */
export function writeTrainingJsonl(dir: string, items: TrainingItem[]): string {
  const file = path.join(dir, 'training.jsonl');
  writeFileSync(
    file,
    items.map((q) => JSON.stringify({ question: q.question, sql: q.sql, database: spiderDatabasePath(q.db_id), db_id: q.db_id })).join('\n') + '\n',
  );
  return file;
}
