import { relationName, type NodeResultRef } from '../../core/dag/node-results';
import { replacePlaceholders } from '../../core/dag/placeholders';
import { renderSqlValue, type SqlValue } from '../../core/sql-value';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { cleanSql, type GeneratedSql } from '../generation/generated-sql';
import { askModel } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import { loadNodeResults } from './node-result-store';

export interface GenerateNodeSqlInput {
  ctx: QuestionContext;
  node: { id: number; question: string };
  upstream: NodeResultRef[];
}

export interface GenerateNodeSqlOutput extends GeneratedSql {
  /** The sub-question as the model read it, `@[n]` resolved. */
  resolvedQuestion: string;
}

const PROMPT_CELL_CHARS = 100;
const SAMPLE_ROWS = 3;

/**
 * SQL for one sub-question (DecoSearch §3.6, C.3 per node): the sub-question with its inputs
 * resolved — a small result as the list of its values, a large one by the name of its relation —
 * and a description of every input, so the model can write `@[n]` or query `n<k>`.
 */
export async function generateNodeSql(deps: QuestionLlmDeps, input: GenerateNodeSqlInput): Promise<GenerateNodeSqlOutput> {
  const values = new Map<number, string>();
  const lines: string[] = [];
  const results = await loadNodeResults(
    deps.store,
    input.upstream.map((u) => u.ref),
  );
  for (const [i, u] of input.upstream.entries()) {
    const stored = results[i];
    const cols = u.columns.join(', ');
    if (u.passedAs === 'inline') {
      const list = `(${stored.rows.map((r) => cell(r[0] ?? null)).join(', ') || 'no values'})`;
      values.set(u.id, list);
      const more = u.columns.length > 1 ? ` (the list is its first column; its rows: ${stored.rows.map((r) => `(${r.map(cell).join(', ')})`).join(', ')})` : '';
      lines.push(`@[${u.id}], step ${u.id} "${u.question}": ${u.rowCount} row(s) of ${cols} = ${list}${more}`);
    } else {
      values.set(u.id, `the values in table ${relationName(u.id)}`);
      const sample = stored.rows
        .slice(0, SAMPLE_ROWS)
        .map((r) => `(${r.map(cell).join(', ')})`)
        .join(', ');
      lines.push(`@[${u.id}], step ${u.id} "${u.question}": ${u.rowCount} rows, too many to list: table ${relationName(u.id)}(${cols}), e.g. ${sample}`);
    }
  }
  const resolvedQuestion = replacePlaceholders(input.node.question, (id) => values.get(id) ?? `@[${id}]`);
  const vars = await questionPromptVars(deps, { ...input.ctx, question: resolvedQuestion });
  const answer = await askModel(deps.llm, 'generate-node-sql', {
    ...vars,
    upstream: lines.length ? lines.join('\n') : '(none: this step reads only the database)',
  });
  return { sql: cleanSql(answer.value.sql), reasoning: answer.value.reasoning, usage: answer.usage, resolvedQuestion };
}

function cell(v: SqlValue): string {
  const text = typeof v === 'string' ? `'${v}'` : renderSqlValue(v);
  return text.length > PROMPT_CELL_CHARS ? `${text.slice(0, PROMPT_CELL_CHARS)}…` : text;
}
