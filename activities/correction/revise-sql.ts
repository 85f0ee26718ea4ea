import { formatFinding, type Finding } from '../../core/correction/finding';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { cleanSql, type GeneratedSql } from '../generation/generated-sql';
import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface ReviseSqlInput {
  ctx: QuestionContext;
  /** Every attempt so far with its findings, oldest first (DecoSearch C.4 keeps the full history). */
  attempts: { sql: string; findings: Finding[] }[];
}

/** DexterSQL §3.4.1 Step 2 / DecoSearch's SQL refiner (C.4): one revision from the diagnostic report and the attempt history. */
export async function reviseSql(deps: QuestionLlmDeps, input: ReviseSqlInput): Promise<GeneratedSql> {
  const history = input.attempts
    .map((a, i) => `Attempt ${i + 1}:\n${a.sql}\nProblems:\n${a.findings.map((f) => `- ${formatFinding(f)}`).join('\n')}`)
    .join('\n\n');
  const vars = { ...(await questionPromptVars(deps, input.ctx)), history, attemptCount: String(input.attempts.length) };
  const answer = await askModel(deps.llm, 'revise-sql', vars);
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage };
}
