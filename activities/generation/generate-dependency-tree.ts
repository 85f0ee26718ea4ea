import { parseQuestionTree, renderQuestionTree } from '../../core/generation/dependency-tree';
import { askModel } from '../llm/ask-model';
import { questionPromptVars, type QuestionContext } from '../prompts/question-context';
import type { QuestionLlmDeps } from './generation-deps';
import { cleanSql, type GeneratedSql } from './generated-sql';

/**
 * DexterSQL's dependency-tree path (§3.3.2): the question parsed into an SQL-oriented tree
 * (projections, aggregates, filters with their literals, temporal constraints, superlatives,
 * grouping), rendered as a skeleton the model completes, so no mention or literal is lost.
 */
export async function generateDependencyTree(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<GeneratedSql> {
  const skeleton = renderQuestionTree(parseQuestionTree(ctx.question));
  const vars = { ...(await questionPromptVars(deps, ctx)), skeleton };
  const answer = await askModel<{ reasoning: string; sql: string }>(deps.llm, 'generate-sql-dependency-tree', vars);
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage, context: skeleton };
}
