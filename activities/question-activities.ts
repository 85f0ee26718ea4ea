import type { ActivityDeps } from './activity-deps';
import { createCorrectionActivities, createDiagnosisActivities } from './correction/correction-activities';
import { createDatabaseActivities } from './database/database-activities';
import { createDagExecutionActivities, createDecompositionActivities } from './decomposition/decomposition-activities';
import { createGenerationActivities } from './generation/generation-activities';
import type { QuestionLlmDeps } from './generation/generation-deps';
import { createJudgingActivities } from './judging/judging-activities';
import { createLinkingActivities, createRetrievalActivities } from './linking/linking-activities';
import { createNotesActivities } from './notes/notes-activities';
import { createSelectionActivities } from './selection/selection-activities';

/** What the question's model stages read: the model, the target databases, the prepared artifacts. */
export function questionLlmDeps(deps: ActivityDeps): QuestionLlmDeps {
  return { llm: deps.llm, databases: deps.databases, store: deps.artifacts };
}

/**
 * The answer workflow's activities on the `online` queue: database and index work. Its proxy's
 * type is this factory's return type, and the online worker registers what it returns, so a
 * new activity is one function in its stage's factory (a new factory is one line here).
 */
export function createQuestionOnlineActivities(deps: ActivityDeps) {
  const stored = { databases: deps.databases, store: deps.artifacts };
  return {
    ...createDatabaseActivities(deps.databases),
    ...createRetrievalActivities({ ...stored, vectors: deps.vectors, embedders: deps.embedders }),
    ...createDiagnosisActivities(stored),
    ...createDagExecutionActivities(stored),
  };
}

/** The answer workflow's activities on the `llm` queue: one model call each (see the online ones). */
export function createQuestionLlmActivities(deps: ActivityDeps) {
  const question = questionLlmDeps(deps);
  return {
    ...createLinkingActivities(question),
    ...createNotesActivities(question),
    ...createJudgingActivities(question),
    ...createDecompositionActivities({ ...question, vectors: deps.vectors, embedder: deps.embedders.questions }),
    ...createGenerationActivities({ ...question, vectors: deps.vectors }),
    ...createCorrectionActivities(question),
    ...createSelectionActivities(question),
  };
}

export type QuestionOnlineActivities = ReturnType<typeof createQuestionOnlineActivities>;
export type QuestionLlmActivities = ReturnType<typeof createQuestionLlmActivities>;
