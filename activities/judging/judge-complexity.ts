import type { LlmCallUsage } from '../../core/usage';
import { askModel } from '../prompts/ask-model';
import type { LlmService } from '../llm/llm-service';
import { questionPromptVars, type ContextDeps } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface JudgeComplexityOutput {
  needsDecomposition: boolean;
  reasoning: string;
  usage: LlmCallUsage;
}

/**
 * DecoSearch's judger (§3.4, C.1): one zero-shot call over the question and the pruned schema
 * that routes the question to the direct path or to decomposition, preferring the direct path.
 */
export async function judgeComplexity(deps: ContextDeps & { llm: LlmService }, ctx: QuestionContext): Promise<JudgeComplexityOutput> {
  const vars = await questionPromptVars(deps, ctx);
  const answer = await askModel(deps.llm, 'judge-complexity', vars);
  return { needsDecomposition: answer.value.needs_decomposition, reasoning: answer.value.reasoning.trim(), usage: answer.usage };
}
