import type { CorrectionRule, FewShotExample, KnowledgeSummary } from '../../core/knowledge/knowledge-types';
import type { ArtifactStore } from '../artifacts/artifact-store';

/**
 * Where learned knowledge lives in the artifact store. It does not depend on the target
 * database: examples and rules are mined from training databases and are database-agnostic.
 */
export const KNOWLEDGE_KINDS = {
  fewShot: 'few-shot-examples',
  rules: 'correction-rules',
} as const;
export const KNOWLEDGE_KEY = 'current';

export async function loadFewShotExamples(store: ArtifactStore): Promise<FewShotExample[]> {
  return (await store.get<FewShotExample[]>(KNOWLEDGE_KINDS.fewShot, KNOWLEDGE_KEY)) ?? [];
}

export async function loadCorrectionRules(store: ArtifactStore): Promise<CorrectionRule[]> {
  return (await store.get<CorrectionRule[]>(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY)) ?? [];
}

export async function summarizeKnowledge(store: ArtifactStore): Promise<KnowledgeSummary> {
  return { fewShotExamples: (await loadFewShotExamples(store)).length, correctionRules: (await loadCorrectionRules(store)).length };
}
