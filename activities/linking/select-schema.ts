import { canonicalFocus, restrictSchema } from '../../core/linking/focused-schema';
import type { FocusedTable } from '../../core/question/focused-table';
import { remapNames } from '../../core/linking/remap-names';
import { renderSchemaOutline } from '../../core/schema-text';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { askModel } from '../prompts/ask-model';
import { loadSchema } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

/**
 * DecoSearch's schema selector (§3.3, Algorithm 2): keywords → tables → columns, three calls,
 * every name the model returns remapped to a real one (exact, then fuzzy), and the whole schema
 * kept when pruning would leave nothing.
 */
export async function extractKeywords(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<{ keywords: string[]; usage: LlmCallUsage }> {
  const answer = await askModel(deps.llm, 'extract-keywords', { question: ctx.question, evidence: ctx.evidence?.trim() || '(none)' });
  return { keywords: answer.value.keywords.map((k) => k.trim()).filter(Boolean), usage: answer.usage };
}

export interface SelectTablesInput {
  ctx: QuestionContext;
  keywords: string[];
}

export async function selectTables(deps: QuestionLlmDeps, input: SelectTablesInput): Promise<{ tables: string[]; returned: string[]; usage: LlmCallUsage }> {
  const { schema } = await loadSchema(deps, input.ctx);
  const answer = await askModel(deps.llm, 'select-tables', {
    schema: renderSchemaOutline(schema),
    keywords: input.keywords.join(', ') || '(none)',
    evidence: input.ctx.evidence?.trim() || '(none)',
    question: input.ctx.question,
  });
  const tables = remapNames(
    answer.value.tables,
    schema.tables.map((t) => t.name),
  );
  return { tables, returned: answer.value.tables, usage: answer.usage };
}

export interface SelectColumnsInput extends SelectTablesInput {
  tables: string[];
}

export async function selectColumns(
  deps: QuestionLlmDeps,
  input: SelectColumnsInput,
): Promise<{ focus: FocusedTable[] | null; returned: string[]; usage: LlmCallUsage }> {
  const { schema } = await loadSchema(deps, input.ctx);
  const tableFocus = input.tables.map((table) => ({ table, columns: schema.tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? [] }));
  const answer = await askModel(deps.llm, 'select-columns', {
    schema: renderSchemaOutline(restrictSchema(schema, tableFocus)),
    keywords: input.keywords.join(', ') || '(none)',
    evidence: input.ctx.evidence?.trim() || '(none)',
    question: input.ctx.question,
  });
  const focus: FocusedTable[] = [];
  for (const table of input.tables) {
    const real = schema.tables.find((t) => t.name === table)!;
    const asked = answer.value.columns.map((c) => splitQualified(c)).filter((c) => c.table === null || remapNames([c.table], [table]).length > 0);
    const columns = remapNames(
      asked.map((c) => c.column),
      real.columns.map((c) => c.name),
    );
    if (columns.length) focus.push({ table, columns });
  }
  const pruned = canonicalFocus(schema, focus);
  // Algorithm 2, line 18: an empty pruning falls back to the original schema.
  return { focus: pruned.length ? pruned : null, returned: answer.value.columns, usage: answer.usage };
}

/** `table.column`, `"table"."column"` or a bare `column`. */
function splitQualified(name: string): { table: string | null; column: string } {
  const parts = name.split('.').map((p) => p.trim());
  return parts.length >= 2 ? { table: parts.slice(0, -1).join('.'), column: parts[parts.length - 1] } : { table: null, column: name.trim() };
}
