import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import type { QuestionLlmDeps } from './generation-deps';
import { cleanSql, type GeneratedSql } from './generated-sql';

/** DecoSearch's direct path (§3.4, C.3): one zero-temperature SQL from the pruned schema and the hint. */
export async function generateDirect(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<GeneratedSql> {
  const answer = await askModel(deps.llm, 'generate-sql', await questionPromptVars(deps, ctx));
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage };
}
