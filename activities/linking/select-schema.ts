import { canonicalFocus, restrictSchema } from '../../core/linking/focused-schema';
import { completeSelection, type CompletedSelection } from '../../core/linking/complete-selection';
import type { SchemaInfo } from '../../core/database/schema-types';
import { questionLiterals } from '../../core/indexing/question-literals';
import { recentArtifacts } from '../artifacts/recent-artifacts';
import { loadLinkingIndices, type LinkingIndices } from './retrieve-columns';
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
 * every name the model returns remapped to a real one (exact, then fuzzy), completed as CHESS
 * completes a pruning (core/linking/complete-selection.ts) unless switched off, and the whole
 * schema kept when pruning would leave nothing.
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
  /** Complete the model's columns as CHESS does (core/linking/complete-selection.ts): `linking.completeSelection`. */
  complete: boolean;
}

export interface SelectColumnsOutput {
  focus: FocusedTable[] | null;
  returned: string[];
  /** `table.column (reason)` for each column completion added. */
  completed: string[];
  usage: LlmCallUsage;
}

export async function selectColumns(deps: QuestionLlmDeps, input: SelectColumnsInput): Promise<SelectColumnsOutput> {
  const { schema } = await loadSchema(deps, input.ctx);
  const tableFocus = input.tables.map((table) => ({ table, columns: schema.tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? [] }));
  const answer = await askModel(deps.llm, 'select-columns', {
    schema: renderSchemaOutline(restrictSchema(schema, tableFocus)),
    keywords: input.keywords.join(', ') || '(none)',
    evidence: input.ctx.evidence?.trim() || '(none)',
    question: input.ctx.question,
  });
  const named = answer.value.columns.map(columnOfName).filter((c) => c !== null);
  const focus: FocusedTable[] = [];
  for (const table of input.tables) {
    const real = schema.tables.find((t) => t.name === table)!;
    // A qualifier that is none of the selected tables (an alias, `T1.name`) qualifies nothing.
    const asked = named.filter((c) => c.table === null || remapNames([c.table], [table]).length > 0 || !remapNames([c.table], input.tables).length);
    const columns = remapNames(
      asked.map((c) => c.column),
      real.columns.map((c) => c.name),
    );
    if (columns.length) focus.push({ table, columns });
  }
  const pruned = canonicalFocus(schema, focus);
  const completed = input.complete ? await completeWithSchema(deps, input, schema, pruned) : { focus: pruned, added: [] };
  // Algorithm 2, line 18: an empty pruning falls back to the original schema.
  return {
    focus: completed.focus.length ? completed.focus : null,
    returned: answer.value.columns,
    completed: completed.added.map((a) => `${a.table}.${a.column} (${a.reason})`),
    usage: answer.usage,
  };
}

/** Linking indices of recently asked databases (the value lexicon is the slow part to load). */
const recentIndices = recentArtifacts<LinkingIndices>(8);

async function completeWithSchema(deps: QuestionLlmDeps, input: SelectColumnsInput, schema: SchemaInfo, selected: FocusedTable[]): Promise<CompletedSelection> {
  const prepared = input.ctx.prepared;
  const indices = prepared
    ? await recentIndices(deps.store, `${prepared.databaseId}/${prepared.versions.index}`, () => loadLinkingIndices(deps.store, prepared))
    : null;
  // Exact value matches of what the question quotes or names, and of the keywords; never of bare numbers.
  const literals = questionLiterals(input.ctx.question);
  const phrases = [...literals.quoted, ...literals.phrases, ...input.keywords].filter((p) => !/^-?[\d.]+$/.test(p.trim()));
  const valueMatches = indices ? phrases.flatMap((p) => indices.lexicon.exact(p).map((hit) => ({ table: hit.table, column: hit.column }))) : [];
  return completeSelection({
    schema,
    foreignKeys: indices?.foreignKeys ?? schema.tables.flatMap((t) => t.foreignKeys),
    tables: input.tables,
    selected,
    question: input.ctx.question,
    keywords: input.keywords,
    valueMatches,
  });
}

/**
 * The column a returned name stands for: `table.column`, `"table"."column"` or a bare `column`,
 * also inside an expression (`COUNT(employee.Employee_ID)`, `DISTINCT name`). Null for `*`.
 */
export function columnOfName(name: string): { table: string | null; column: string } | null {
  let text = name.trim();
  for (let inner = /\(([^()]*)\)/.exec(text); inner; inner = /\(([^()]*)\)/.exec(text)) text = inner[1];
  text = text.replace(/^\s*DISTINCT\s+/i, '').trim();
  if (!text || text === '*' || text.endsWith('.*')) return null;
  const parts = text.split('.').map((p) => p.trim());
  return parts.length >= 2 ? { table: parts.slice(0, -1).join('.'), column: parts[parts.length - 1] } : { table: null, column: text };
}
