import path from 'node:path';
import type { BenchmarkQuestion, LoadedDataset } from '../../../core/datasets/benchmark-question';
import { parseTablesJson } from '../../../core/datasets/tables-json';
import { spiderHardness, type SpiderSqlDict } from '../../../core/evaluation/spider-hardness';
import { datasetDatabase } from './dataset-databases';
import { readGoldFile, readJsonFile } from './dataset-files';

interface SpiderItem {
  db_id: string;
  question: string;
  query: string;
  sql: SpiderSqlDict;
}

/**
 * Spider dev: questions from dev.json, gold SQL from dev_gold.sql (what the official evaluation
 * reads; checked to line up with dev.json), hardness from each item's parsed SQL, schemas from
 * tables.json. `databaseDir` may point at test-suite databases instead of spider/database, or be a
 * server URL holding copies of them (dataset-databases.ts).
 */
/** Missing databases are marked later, after --limit (see load-dataset.ts). */
export function loadSpiderDev(root: string, options: { databaseDir?: string } = {}): LoadedDataset {
  const dir = path.join(root, 'spider');
  const items = readJsonFile<SpiderItem[]>(path.join(dir, 'dev.json'));
  const gold = readGoldFile(path.join(dir, 'dev_gold.sql'));
  if (gold.length !== items.length) throw new Error(`spider/dev_gold.sql has ${gold.length} queries for ${items.length} questions in dev.json`);
  const databaseDir = options.databaseDir ?? path.join(dir, 'database');

  const questions: BenchmarkQuestion[] = items.map((item, index) => {
    if (gold[index].dbId !== item.db_id) throw new Error(`spider/dev_gold.sql line ${index + 1} is for ${gold[index].dbId}, dev.json says ${item.db_id}`);
    return {
      index,
      id: String(index),
      question: item.question,
      goldSql: gold[index].sql,
      dbId: item.db_id,
      database: datasetDatabase(databaseDir, item.db_id),
      evaluationDatabases: [],
      difficulty: spiderHardness(item.sql),
    };
  });
  return spiderSplit('spider-dev', questions, dir);
}

/**
 * One question of Spider's training split as Spider-Syn's train file keeps it: SpiderQuestion is
 * Spider's own wording, SpiderSynQuestion the same question with its schema words replaced by
 * synonyms ("leaders of the divisions" for "heads of the departments").
 */
interface SpiderTrainItem {
  db_id: string;
  SpiderQuestion: string;
  SpiderSynQuestion: string;
  query: string;
}

/**
 * Spider train (the 7,000 questions of train_spider.json, read from Spider-Syn's copy, which the
 * few-shot index and rule mining read too): the split to tune on, so that Spider dev stays the
 * split to report on. Its items carry no parsed SQL, so they have no hardness and a sample is
 * stratified by database alone. Ids are `train-<n>`, apart from dev's.
 */
export function loadSpiderTrain(root: string, options: { databaseDir?: string } = {}): LoadedDataset {
  return loadTrainWording(root, options, 'spider-train');
}

/**
 * Spider-Syn train: the same 7,000 questions and gold SQL, each worded without the schema's own
 * names (Gan et al., 2021), to tune on questions that do not name the columns they need, as users'
 * questions often do not. Ids are Spider train's (`train-<n>`), so a seeded sample of either split
 * holds the same questions: a run on each compares the two wordings question by question.
 */
export function loadSpiderSynTrain(root: string, options: { databaseDir?: string } = {}): LoadedDataset {
  return loadTrainWording(root, options, 'spider-syn-train');
}

function loadTrainWording(root: string, options: { databaseDir?: string }, name: 'spider-train' | 'spider-syn-train'): LoadedDataset {
  const dir = path.join(root, 'spider');
  const items = readJsonFile<SpiderTrainItem[]>(path.join(root, 'spider-syn', 'train_spider.json'));
  const databaseDir = options.databaseDir ?? path.join(dir, 'database');
  const questions: BenchmarkQuestion[] = items.map((item, index) => ({
    index,
    id: `train-${index}`,
    question: name === 'spider-syn-train' ? item.SpiderSynQuestion : item.SpiderQuestion,
    goldSql: item.query,
    dbId: item.db_id,
    database: datasetDatabase(databaseDir, item.db_id),
    evaluationDatabases: [],
  }));
  return spiderSplit(name, questions, dir);
}

/** A Spider split: its questions, Spider's evaluator and the schemas of tables.json (shared by both splits). */
function spiderSplit(name: 'spider-dev' | 'spider-train' | 'spider-syn-train', questions: BenchmarkQuestion[], dir: string): LoadedDataset {
  return { name, evaluator: 'spider', questions, schemas: parseTablesJson(readJsonFile(path.join(dir, 'tables.json'))), missingDatabases: [], notes: {} };
}
