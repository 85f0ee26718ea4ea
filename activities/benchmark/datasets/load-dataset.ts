import path from 'node:path';
import type { EvaluatorName, LoadedDataset } from '../../../core/datasets/benchmark-question';
import { loadBird } from './bird-dataset';
import { markMissingDatabases } from './dataset-files';
import { loadJsonlDataset } from './jsonl-dataset';
import { loadSpiderDev, loadSpiderSynTrain, loadSpiderTrain } from './spider-dataset';
import { stratifiedSample, type SampleSpec } from '../../../core/benchmark/stratified-sample';

export const NAMED_DATASETS = ['spider-dev', 'spider-train', 'spider-syn-train', 'bird-dev', 'bird-mini-dev'] as const;

/** The splits read from spider/: scored by Spider's rules, and Spider's test-suite layout (several .sqlite variants of a database) applies to them. */
const SPIDER_SPLITS = new Set<string>(['spider-dev', 'spider-train', 'spider-syn-train']);

export function isSpiderSplit(dataset: string): boolean {
  return SPIDER_SPLITS.has(dataset);
}

export interface DatasetRequest {
  /** `spider-dev`, `spider-train`, `spider-syn-train`, `bird-dev`, `bird-mini-dev`, or the path of a `.jsonl` question file. */
  dataset: string;
  /** Folder holding spider/ and bird/ (DECODEX_DATASETS). */
  root: string;
  /** Only the first `limit` questions. */
  limit?: number;
  /** A seeded sample stratified by database and difficulty (after `limit`), renumbered from 0; ids stay the dataset's. */
  sample?: SampleSpec;
  /** Replaces the dataset's own evaluator (JSONL default: bird). */
  evaluator?: EvaluatorName;
  /** Databases from elsewhere: Spider's test-suite databases, or a server URL with `{db_id}` (dataset-databases.ts). */
  databaseDir?: string;
}

/** Loads a dataset, keeps the first `limit` questions or a sample of them, and marks those whose database is missing. */
export function loadDataset(request: DatasetRequest): LoadedDataset {
  const loaded = loadAll(request);
  const evaluator = request.evaluator ?? loaded.evaluator;
  const first = request.limit !== undefined ? loaded.questions.slice(0, request.limit) : loaded.questions;
  const questions = request.sample ? stratifiedSample(first, request.sample).map((q, index) => ({ ...q, index })) : first;
  const missingDatabases = markMissingDatabases(questions, isSpiderSplit(loaded.name));
  const used = new Set(questions.map((q) => q.dbId));
  const schemas = Object.fromEntries(Object.entries(loaded.schemas).filter(([dbId]) => used.has(dbId)));
  return { ...loaded, evaluator, questions, schemas, missingDatabases };
}

function loadAll(request: DatasetRequest): LoadedDataset {
  const options = { databaseDir: request.databaseDir };
  switch (request.dataset) {
    case 'spider-dev':
      return loadSpiderDev(request.root, options);
    case 'spider-train':
      return loadSpiderTrain(request.root, options);
    case 'spider-syn-train':
      return loadSpiderSynTrain(request.root, options);
    case 'bird-dev':
    case 'bird-mini-dev':
      return loadBird(request.root, request.dataset, options);
    default:
      if (request.dataset.endsWith('.jsonl')) return loadJsonlDataset(path.resolve(request.dataset), request.evaluator);
      throw new Error(`unknown dataset "${request.dataset}": use ${NAMED_DATASETS.join(', ')} or a .jsonl file`);
  }
}
