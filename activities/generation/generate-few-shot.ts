import { ApplicationFailure } from '@temporalio/common';
import { retrieveFewShotExamples } from '../knowledge/few-shot-index';
import type { VectorStore } from '../vectors/vector-store';
import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import type { QuestionLlmDeps } from './generation-deps';
import { cleanSql, type GeneratedSql } from './generated-sql';

/** Demonstrations per prompt. */
export const FEW_SHOT_EXAMPLES = 3;

/**
 * DexterSQL's few-shot path (§3.3.2): the structurally most similar training examples from the
 * few-shot index (activities/knowledge/few-shot-index.ts) as demonstrations; the trace shows each
 * one's question and SQL skeleton. The workflow only schedules it when examples are stored; finding none here
 * means the store changed underneath, which a retry will not fix.
 */
export async function generateFewShot(deps: QuestionLlmDeps & { vectors: VectorStore }, ctx: QuestionContext): Promise<GeneratedSql> {
  const examples = await retrieveFewShotExamples(deps, ctx.question, FEW_SHOT_EXAMPLES, ctx.withholdExamplesOf);
  if (!examples.length) throw ApplicationFailure.nonRetryable('no few-shot examples are stored', 'KnowledgeMissing');
  const text = examples
    .map((e, i) => `Example ${i + 1} (database ${e.database})\nQuestion: ${e.question}${e.evidence ? `\nHint: ${e.evidence}` : ''}\nSQL: ${e.sql}`)
    .join('\n\n');
  const vars = { ...(await questionPromptVars(deps, ctx)), examples: text };
  const answer = await askModel(deps.llm, 'generate-sql-few-shot', vars);
  return {
    sql: cleanSql(answer.value.sql),
    reasoning: answer.value.reasoning,
    usage: answer.usage,
    context: examples.map((e) => `${e.question} → ${e.skeleton ?? e.sql}`).join(' | '),
  };
}
