/**
 * What decodex learns from training data (the learning issue builds these; the online stages
 * read them and skip cleanly, saying so, when none exist):
 * - few-shot examples for DexterSQL's few-shot generation path (§3.3.2);
 * - correction rules for its rule-guided correction (§3.1.4, §3.4.1 Steps 3–4);
 * - DecoSearch's decomposition knowledge base: past questions with the sub-question DAG that
 *   answered them correctly, shown to the decomposer as examples (§3.5, k = 3).
 */
import type { SubQuestionDag } from '../dag/sub-question-dag';

export interface FewShotExample {
  question: string;
  evidence?: string;
  sql: string;
  /** The SQL with its values masked (core/knowledge/sql-skeleton.ts). */
  skeleton?: string;
  /** The training database it comes from (examples never show the user's own schema). */
  database: string;
}

export interface CorrectionRule {
  id: string;
  /** One sentence: the recurring mistake. */
  gist: string;
  badPattern: string;
  correctPattern: string;
  /** How to rewrite a query that shows the bad pattern. */
  fix: string;
  /**
   * The SQL shape difference the rule was mined from (core/mining/sql-differences.ts), when its
   * failures were grouped by one: the rule is offered only to a query that can show it.
   */
  difference?: string;
}

export interface DecompositionExample {
  question: string;
  evidence?: string;
  /** The training database it comes from. */
  database: string;
  dag: SubQuestionDag;
}

/** How much of each kind is stored (the online pipeline decides from this which steps can run). */
export interface KnowledgeSummary {
  fewShotExamples: number;
  correctionRules: number;
}
