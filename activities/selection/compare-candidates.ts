import type { SqlRow } from '../../core/sql-value';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface TournamentEntrant {
  sql: string;
  confidence: number;
  preview: SqlRow[];
  rowCount: number;
}

export interface CompareCandidatesInput {
  ctx: QuestionContext;
  a: TournamentEntrant;
  b: TournamentEntrant;
}

function previewText(e: TournamentEntrant): string {
  return `${e.rowCount} row${e.rowCount === 1 ? '' : 's'}${e.preview.length ? `, first: ${JSON.stringify(e.preview)}` : ''}`;
}

/** One game of DexterSQL's pairwise tournament (§3.4.2): which of two cluster representatives answers the question. */
export async function compareCandidates(
  deps: QuestionLlmDeps,
  input: CompareCandidatesInput,
): Promise<{ winner: 'A' | 'B'; reasoning: string; usage: LlmCallUsage }> {
  const vars = await questionPromptVars(deps, input.ctx);
  const answer = await askModel(deps.llm, 'compare-candidates', {
    ...vars,
    sqlA: input.a.sql,
    sqlB: input.b.sql,
    supportA: input.a.confidence.toFixed(2),
    supportB: input.b.confidence.toFixed(2),
    previewA: previewText(input.a),
    previewB: previewText(input.b),
  });
  return { winner: answer.value.winner, reasoning: answer.value.reasoning, usage: answer.usage };
}
