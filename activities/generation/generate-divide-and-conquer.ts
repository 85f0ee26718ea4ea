import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import type { QuestionLlmDeps } from './generation-deps';
import { cleanSql, type GeneratedSql } from './generated-sql';

/** DexterSQL's divide-and-conquer path (§3.3.2, after CHASE-SQL): sub-questions, partial SQL, one composed query. */
export async function generateDivideAndConquer(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<GeneratedSql> {
  const answer = await askModel(deps.llm, 'generate-sql-divide-and-conquer', await questionPromptVars(deps, ctx));
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage };
}
