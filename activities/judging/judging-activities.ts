import type { QuestionLlmDeps } from '../generation/generation-deps';
import type { QuestionContext } from '../../core/question/question-context';
import { judgeComplexity } from './judge-complexity';

/** DecoSearch's judger, on the `llm` queue. */
export function createJudgingActivities(deps: QuestionLlmDeps) {
  return { judgeComplexity: (ctx: QuestionContext) => judgeComplexity(deps, ctx) };
}
