import type { Dialect } from '../database/schema-types';
import type { PreparationVersions } from '../preparation/preparation-types';
import type { FocusedTable } from './focused-table';

/**
 * What every LLM step of a question knows, small enough to travel in workflow history: the
 * question, its evidence, the database reference, and what the earlier stages decided (focused
 * schema, grounding values, selected notes). Activities expand it into prompt text themselves,
 * reading the schema and profiles from the artifact store (or the database when unprepared).
 */
export interface QuestionContext {
  question: string;
  evidence?: string;
  database: string;
  dialect: Dialect;
  prepared: { databaseId: string; versions: PreparationVersions } | null;
  /** null: the whole schema. */
  focus: FocusedTable[] | null;
  /** Database values matched to the question (`table.column = 'value'`), DexterSQL §3.2 Step 1's grounding. */
  grounding: string[];
  /** Disambiguation notes the note incorporator selected (§3.3.1). */
  notes: string[];
  /** Retrieved examples of this database are withheld (AnswerQuestionInput.withholdExamplesOf). */
  withholdExamplesOf?: string;
}
