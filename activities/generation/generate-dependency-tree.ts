import { parseQuestionTree, renderQuestionTree } from '../../core/generation/dependency-tree';
import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import type { QuestionLlmDeps } from './generation-deps';
import { cleanSql, type GeneratedSql } from './generated-sql';

/**
 * DexterSQL's dependency-tree path (§3.3.2): the question parsed into a tree of chunks and their
 * heads (projections, aggregates, filters with their literals, temporal constraints,
 * superlatives, grouping), rendered as an SQL skeleton that keeps every literal in front of the
 * model. It is a hint from the wording alone: the prompt lets the model correct or drop any part.
 */
export async function generateDependencyTree(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<GeneratedSql> {
  const skeleton = renderQuestionTree(parseQuestionTree(ctx.question));
  const vars = { ...(await questionPromptVars(deps, ctx)), skeleton };
  const answer = await askModel(deps.llm, 'generate-sql-dependency-tree', vars);
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage, context: skeleton };
}
