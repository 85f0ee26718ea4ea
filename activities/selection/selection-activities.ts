import type { QuestionLlmDeps } from '../generation/generation-deps';
import { compareCandidates, type CompareCandidatesInput } from './compare-candidates';

/** Selection's tournament games, on the `llm` queue (clustering is pure workflow code). */
export function createSelectionActivities(deps: QuestionLlmDeps) {
  return { compareCandidates: (input: CompareCandidatesInput) => compareCandidates(deps, input) };
}
