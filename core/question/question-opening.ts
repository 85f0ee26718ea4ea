import type { Dialect } from '../database/schema-types';
import type { KnowledgeSummary } from '../knowledge/knowledge-types';
import type { PreparedDatabaseManifest } from '../preparation/preparation-types';

/** What the first step of a question found: the database, its preparation and the learned knowledge (what the workflow plans with). */
export interface OpenQuestionOutput {
  label: string;
  dialect: Dialect;
  tables: number;
  columns: number;
  /** The prepared artifacts (DexterSQL Phase 1), or null when the database was never prepared. */
  prepared: (Pick<PreparedDatabaseManifest, 'databaseId' | 'versions' | 'collections' | 'preparedAt' | 'complete'> & { notes: number }) | null;
  knowledge: KnowledgeSummary;
  /** How the database was opened, worth a look (a MySQL account that can write); absent when nothing. */
  warnings?: string[];
}
