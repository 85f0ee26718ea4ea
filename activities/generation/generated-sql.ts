import type { LlmCallUsage } from '../../core/usage';

/** One candidate from a generation path, with the model's reasoning (shown in the trace) and its cost. */
export interface GeneratedSql {
  sql: string;
  reasoning: string;
  usage: LlmCallUsage;
  /** Path-specific context that shaped the prompt (the IR skeleton, the examples used). */
  context?: string;
}

/** Models wrap SQL in fences or end it with `;` however they are asked; neither is part of the query. */
export function cleanSql(sql: string): string {
  return sql
    .trim()
    .replace(/^```(?:sql)?\s*/i, '')
    .replace(/\s*```$/, '')
    .trim()
    .replace(/;\s*$/, '')
    .trim();
}
