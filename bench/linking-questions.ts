import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A question with its gold SQL, as the linking benchmark scores it. */
export interface LinkingQuestion {
  dbId: string;
  question: string;
  sql: string;
}

export const LINKING_DATASETS = ['spider-dev', 'spider-train'] as const;
/**
 * Run only when asked: the same train questions with Spider-Syn's synonym substitutions
 * ("leaders of the divisions" for "heads of the departments"), to see what meaning adds.
 */
export const EXTRA_LINKING_DATASETS = ['spider-syn-train'] as const;
export type LinkingDataset = (typeof LINKING_DATASETS)[number] | (typeof EXTRA_LINKING_DATASETS)[number];

/** Every 4th train question: ~1,750, enough to tell settings apart in seconds, on all 140 train databases. */
const TRAIN_STRIDE = 4;

/**
 * The questions of a dataset. `spider-train` holds databases disjoint from dev's, so it shows
 * whether settings measured on dev hold elsewhere. Spider's train questions ship only inside
 * Spider-Syn's train file (field SpiderQuestion, the original wording; see the datasets' SOURCES.md).
 */
export function linkingQuestions(datasets: string, dataset: LinkingDataset): LinkingQuestion[] {
  if (dataset === 'spider-dev') {
    const dev = JSON.parse(readFileSync(path.join(datasets, 'spider', 'dev.json'), 'utf8')) as { db_id: string; question: string; query: string }[];
    return dev.map((q) => ({ dbId: q.db_id, question: q.question, sql: q.query }));
  }
  const train = JSON.parse(readFileSync(path.join(datasets, 'spider-syn', 'train_spider.json'), 'utf8')) as {
    db_id: string;
    SpiderQuestion: string;
    SpiderSynQuestion: string;
    query: string;
  }[];
  const synonyms = dataset === 'spider-syn-train';
  return train
    .filter((_, i) => i % TRAIN_STRIDE === 0)
    .map((q) => ({ dbId: q.db_id, question: synonyms ? q.SpiderSynQuestion : q.SpiderQuestion, sql: q.query }));
}
