import path from 'node:path';
import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import { isExampleFile } from '../../core/knowledge/few-shot-job-types';
import { sqlSkeleton } from '../../core/knowledge/sql-skeleton';
import { readJsonFile } from '../benchmark/datasets/dataset-files';
import { readJsonlQuestions } from '../benchmark/datasets/jsonl-dataset';

/**
 * Training questions that can feed the few-shot index. No database is needed for these (examples
 * are shown, not run), so BIRD's train set, which ships without its databases here, feeds it too.
 * - spider-train: Spider's training questions (Spider-Syn's train file, field SpiderQuestion);
 * - bird-train: BIRD's training questions with their evidence.
 * Besides these, a source may be a user's JSONL file (the format of `loadJsonlDataset`).
 */
export const FEW_SHOT_SOURCES = ['spider-train', 'bird-train'] as const;
export type FewShotSource = (typeof FEW_SHOT_SOURCES)[number];

/**
 * An example to index. One from a user's file carries `check`: its SQL must run on its database
 * before it is indexed (validate-few-shot-examples.ts), since nothing else vouches for it, while
 * the published training sets are taken as they are.
 */
export interface FewShotCandidate {
  example: FewShotExample;
  check?: { source: string; line: number; database: string };
}

const withSkeleton = (e: FewShotExample): FewShotExample => ({ ...e, skeleton: sqlSkeleton(e.sql) });

export function loadFewShotSource(source: string, root: string): FewShotCandidate[] {
  switch (source) {
    case 'spider-train':
      return readJsonFile<{ db_id: string; SpiderQuestion: string; query: string }[]>(path.join(root, 'spider-syn', 'train_spider.json')).map((q) => ({
        example: withSkeleton({ question: q.SpiderQuestion.trim(), sql: q.query.trim(), database: q.db_id }),
      }));
    case 'bird-train':
      return readJsonFile<{ db_id: string; question: string; evidence?: string; SQL: string }[]>(path.join(root, 'bird', 'train', 'train.json')).map((q) => ({
        example: withSkeleton({
          question: q.question.trim(),
          sql: q.SQL.trim(),
          database: q.db_id,
          ...(q.evidence?.trim() ? { evidence: q.evidence.trim() } : {}),
        }),
      }));
    default:
      if (isExampleFile(source)) return loadExampleFile(source);
      throw new Error(`unknown few-shot source "${source}": use ${FEW_SHOT_SOURCES.join(', ')} or a .jsonl file`);
  }
}

/**
 * A user's file: each example is labelled with its `db_id`, or the database's label, as a
 * benchmark of the same file labels its questions, so a run over one of them withholds the
 * examples of its own database (core/knowledge/without-question.ts).
 */
function loadExampleFile(file: string): FewShotCandidate[] {
  return readJsonlQuestions(file).map(({ line, question: q }) => ({
    example: withSkeleton({
      question: q.question.trim(),
      sql: q.goldSql.trim(),
      database: q.dbId,
      ...(q.evidence?.trim() ? { evidence: q.evidence.trim() } : {}),
    }),
    check: { source: file, line, database: q.database },
  }));
}
