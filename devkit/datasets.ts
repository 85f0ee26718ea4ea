import { readFileSync } from 'node:fs';
import path from 'node:path';

import { datasetsRoot } from '../core/datasets/datasets-root';

/** Benchmark data is read in place (DECODEX_DATASETS), never copied into the repo. */
export const DATASETS = datasetsRoot();

export function spiderDatabasePath(dbId: string): string {
  return path.join(DATASETS, 'spider', 'database', dbId, `${dbId}.sqlite`);
}

export interface SpiderQuestion {
  db_id: string;
  question: string;
  query: string;
}

export function spiderDev(): SpiderQuestion[] {
  return JSON.parse(readFileSync(path.join(DATASETS, 'spider', 'dev.json'), 'utf8'));
}
