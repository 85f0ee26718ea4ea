import type { DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { ArtifactStore } from '../artifacts/artifact-store';

/** Where the decomposition knowledge base keeps its examples (the learning job writes them). */
export const DECOMPOSITIONS_KIND = 'decomposition-examples';
export const DECOMPOSITIONS_KEY = 'current';

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/**
 * The k past decompositions whose questions are most like this one (DecoSearch §3.5, k = 3),
 * by word overlap (Jaccard); none when the knowledge base has not been built.
 */
export async function retrieveDecompositionExamples(deps: { store: ArtifactStore }, question: string, k: number): Promise<DecompositionExample[]> {
  if (k <= 0) return [];
  const all = (await deps.store.get<DecompositionExample[]>(DECOMPOSITIONS_KIND, DECOMPOSITIONS_KEY)) ?? [];
  const q = words(question);
  const score = (e: DecompositionExample) => {
    const w = words(e.question);
    const shared = [...w].filter((x) => q.has(x)).length;
    return shared / (q.size + w.size - shared || 1);
  };
  return all
    .map((e, i) => ({ e, i, s: score(e) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, k)
    .map((x) => x.e);
}
