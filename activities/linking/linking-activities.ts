import type { QuestionLlmDeps } from '../generation/generation-deps';
import type { QuestionContext } from '../../core/question/question-context';
import { draftPreliminarySql, type DraftPreliminarySqlInput } from './draft-preliminary-sql';
import { openQuestion } from './open-question';
import { retrieveSchemaElements, type RetrievalDeps, type RetrieveSchemaElementsInput } from './retrieve-schema-elements';
import { extractKeywords, selectColumns, selectTables, type SelectColumnsInput, type SelectTablesInput } from './select-schema';
import type { DatabaseRegistry } from '../database/database-registry';

/** Schema linking's database and index work (DexterSQL §3.2 Step 1), on the `online` queue. */
export function createRetrievalActivities(deps: RetrievalDeps & { databases: DatabaseRegistry }) {
  return {
    openQuestion: (input: { database: string }) => openQuestion(deps, input),
    retrieveSchemaElements: (input: RetrieveSchemaElementsInput) => retrieveSchemaElements(deps, input),
  };
}

/** Schema linking's model calls, on the `llm` queue: DexterSQL's preliminary SQLs and DecoSearch's selector. */
export function createLinkingActivities(deps: QuestionLlmDeps) {
  return {
    draftPreliminarySql: (input: DraftPreliminarySqlInput) => draftPreliminarySql(deps, input),
    extractKeywords: (ctx: QuestionContext) => extractKeywords(deps, ctx),
    selectTables: (input: SelectTablesInput) => selectTables(deps, input),
    selectColumns: (input: SelectColumnsInput) => selectColumns(deps, input),
  };
}
