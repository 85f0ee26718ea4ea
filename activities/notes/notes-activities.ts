import type { QuestionLlmDeps } from '../generation/generation-deps';
import type { QuestionContext } from '../../core/question/question-context';
import { selectRelevantNotes } from './select-relevant-notes';

/** DexterSQL's note incorporator, on the `llm` queue. */
export function createNotesActivities(deps: QuestionLlmDeps) {
  return { selectRelevantNotes: (ctx: QuestionContext) => selectRelevantNotes(deps, ctx) };
}
