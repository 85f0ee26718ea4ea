import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { estimateSqlDifficulty } from '../../core/mining/sql-difficulty';
import { loadJsonlDataset } from '../benchmark/datasets/jsonl-dataset';
import { readJsonFile } from '../benchmark/datasets/dataset-files';

interface SpiderTrainItem {
  db_id: string;
  SpiderQuestion: string;
  query: string;
}

export interface TrainingSet {
  questions: BenchmarkQuestion[];
  /** Questions left out because their database file is missing (mining must execute both queries). */
  skippedMissingDatabase: number;
}

/**
 * Training questions with executable databases. Spider's training questions ship only inside
 * Spider-Syn's train file (field SpiderQuestion, the original wording; gold in `query`), and its
 * databases under spider/database. Spider has no difficulty labels for train, so each question's
 * is estimated from its gold SQL; a JSONL file's own `difficulty` is used when it has one.
 */
export function loadTrainingSet(dataset: string, root: string): TrainingSet {
  const all = dataset === 'spider-train' ? spiderTrain(root) : jsonl(dataset);
  const questions = all.filter((q) => /^(mysql|mariadb):\/\//i.test(q.database) || existsSync(q.database));
  return { questions: questions.map((q, index) => ({ ...q, index })), skippedMissingDatabase: all.length - questions.length };
}

function spiderTrain(root: string): BenchmarkQuestion[] {
  const items = readJsonFile<SpiderTrainItem[]>(path.join(root, 'spider-syn', 'train_spider.json'));
  return items.map((item, index) => {
    const database = path.join(root, 'spider', 'database', item.db_id, `${item.db_id}.sqlite`);
    return {
      index,
      id: `train-${index}`,
      question: item.SpiderQuestion,
      goldSql: item.query,
      dbId: item.db_id,
      database,
      evaluationDatabases: [database],
      difficulty: estimateSqlDifficulty(item.query),
    };
  });
}

function jsonl(file: string): BenchmarkQuestion[] {
  return loadJsonlDataset(path.resolve(file)).questions.map((q) => ({
    ...q,
    evaluationDatabases: [q.database],
    difficulty: q.difficulty ?? estimateSqlDifficulty(q.goldSql),
  }));
}
