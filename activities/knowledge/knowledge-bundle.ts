import { createHash } from 'node:crypto';
import type { CorrectionRule, DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { Embedder } from '../embeddings/embedder';
import type { VectorStore } from '../vectors/vector-store';
import { listDecompositionExamples, storeDecompositionExamples } from './decomposition-examples';
import { loadCorrectionRules, publishCorrectionRules } from './knowledge-store';

/**
 * What the offline jobs learned, as data that travels: the decomposition knowledge base's examples
 * (`build-knowledge decompositions`) and the current correction rules (`mine-rules`). Those jobs
 * take CPU-hours with a local model; a bundle built once is loaded into another home (a fresh
 * clone's bench, another deployment) in seconds. The few-shot index is not in it: it is built
 * from the training sets themselves, without a model, wherever it is needed.
 */
export interface KnowledgeBundle {
  decompositions: DecompositionExample[];
  rules: CorrectionRule[];
}

export async function exportKnowledge(deps: { store: ArtifactStore; vectors: VectorStore }): Promise<KnowledgeBundle> {
  return { decompositions: await listDecompositionExamples(deps), rules: await loadCorrectionRules(deps.store) };
}

/**
 * Loads a bundle: its examples join the home's knowledge base (embedded with this home's question
 * embedder, an example of the same database and question replaced), and its rules, when it has
 * any, become the current rule set (a new version of it unless they already are).
 */
export async function importKnowledge(
  deps: { store: ArtifactStore; vectors: VectorStore; embedder: Embedder },
  bundle: KnowledgeBundle,
): Promise<{ decompositions: number; rules: number }> {
  await storeDecompositionExamples(deps, bundle.decompositions);
  if (bundle.rules.length) await publishCorrectionRules(deps.store, bundle.rules, { source: 'imported knowledge bundle' });
  return { decompositions: bundle.decompositions.length, rules: bundle.rules.length };
}

/** A short name for a bundle's content (benchmark ids carry it, so runs with other knowledge do not mix). */
export function knowledgeFingerprint(bundle: KnowledgeBundle): string {
  return createHash('sha256').update(JSON.stringify(bundle)).digest('hex').slice(0, 8);
}

/** Whether a bundle holds anything. */
export function isEmptyKnowledge(bundle: KnowledgeBundle): boolean {
  return bundle.decompositions.length === 0 && bundle.rules.length === 0;
}
