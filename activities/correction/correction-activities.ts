import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { diagnoseSql, type DiagnoseSqlInput } from './diagnose-sql';
import { reviseSql, type ReviseSqlInput } from './revise-sql';
import { correctWithRules, type RuleCorrectionInput } from './rule-guided-correction';

/** Correction's diagnostics run the SQL: database work on the `online` queue. */
export function createDiagnosisActivities(deps: { databases: DatabaseRegistry; store: ArtifactStore }) {
  return { diagnoseSql: (input: DiagnoseSqlInput) => diagnoseSql(deps, input) };
}

/** Correction's model calls (revision, rule-guided rewriting), on the `llm` queue. */
export function createCorrectionActivities(deps: QuestionLlmDeps) {
  return {
    reviseSql: (input: ReviseSqlInput) => reviseSql(deps, input),
    correctWithRules: (input: RuleCorrectionInput) => correctWithRules(deps, input),
  };
}
