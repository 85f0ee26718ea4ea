import path from 'node:path';
import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import { sqlSkeleton } from '../../core/knowledge/sql-skeleton';
import { readJsonFile } from '../benchmark/datasets/dataset-files';

/**
 * Training questions that can feed the few-shot index. No database is needed (examples are shown,
 * not run), so BIRD's train set, which ships without its databases here, feeds it too.
 * - spider-train: Spider's training questions (Spider-Syn's train file, field SpiderQuestion);
 * - bird-train: BIRD's training questions with their evidence.
 */
export const FEW_SHOT_SOURCES = ['spider-train', 'bird-train'] as const;
export type FewShotSource = (typeof FEW_SHOT_SOURCES)[number];

export function loadFewShotSource(source: string, root: string): FewShotExample[] {
  const withSkeleton = (e: FewShotExample): FewShotExample => ({ ...e, skeleton: sqlSkeleton(e.sql) });
  switch (source) {
    case 'spider-train':
      return readJsonFile<{ db_id: string; SpiderQuestion: string; query: string }[]>(path.join(root, 'spider-syn', 'train_spider.json')).map((q) =>
        withSkeleton({ question: q.SpiderQuestion.trim(), sql: q.query.trim(), database: q.db_id }),
      );
    case 'bird-train':
      return readJsonFile<{ db_id: string; question: string; evidence?: string; SQL: string }[]>(path.join(root, 'bird', 'train', 'train.json')).map((q) =>
        withSkeleton({ question: q.question.trim(), sql: q.SQL.trim(), database: q.db_id, ...(q.evidence?.trim() ? { evidence: q.evidence.trim() } : {}) }),
      );
    default:
      throw new Error(`unknown few-shot source "${source}": use ${FEW_SHOT_SOURCES.join(', ')}`);
  }
}
