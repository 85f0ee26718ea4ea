import type { FocusedTable } from '../../core/question/focused-table';
import { focusFromColumns, mergeFocus } from '../../core/linking/focused-schema';
import type { PreliminaryView } from '../../core/linking/preliminary-views';
import { renderColumnProfile, renderColumnProfileLine } from '../../core/profiling/profile-text';
import { renderSchemaDdl } from '../../core/schema-text';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { cleanSql } from '../generation/generated-sql';
import { askModel } from '../prompts/ask-model';
import { loadSchema, questionPromptVars, renderFocusedSchema, type LoadedSchema } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import { schemaHintOf, sharedSqlAnalyzer } from '../sql/shared-analyzer';

export interface DraftPreliminarySqlInput {
  ctx: QuestionContext;
  view: PreliminaryView;
}

export interface DraftPreliminarySqlOutput {
  view: PreliminaryView;
  sql: string;
  /** Real columns the draft references (parsed with the schema; none when it does not parse). */
  columns: FocusedTable[];
  parsed: boolean;
  usage: LlmCallUsage;
}

/**
 * The schema text of one view: the preliminary focus, the whole schema, or the whole schema with
 * the profiles of the focused tables (in full, or one line each). The profile views begin as the
 * whole-schema view does, so a sequence that read one reads only the profiles of the other.
 */
function schemaView(loaded: LoadedSchema, ctx: QuestionContext, view: PreliminaryView): string {
  if (view === 'focused') return `Database schema (the part retrieved for this question):\n${renderFocusedSchema(loaded, ctx.focus)}`;
  const full = `Database schema:\n${renderSchemaDdl(loaded.schema)}`;
  if (view === 'full' || loaded.profiles.size === 0) return full;
  const tables = new Set((ctx.focus ?? []).map((t) => t.table.toLowerCase()));
  const render = view === 'profiles' ? renderColumnProfile : renderColumnProfileLine;
  const profiles = [...loaded.profiles.values()].filter((p) => tables.has(p.table.toLowerCase())).map(render);
  return `${full}\n\nColumn profiles of the tables that look relevant:\n${profiles.join('\n')}`;
}

/**
 * One of DexterSQL's three preliminary SQLs (§3.2 Step 2). The draft is not an answer: the
 * columns it references are what the focused schema may be missing (a join key, a column only
 * implied by the question). Only columns that exist are returned.
 */
export async function draftPreliminarySql(deps: QuestionLlmDeps, input: DraftPreliminarySqlInput): Promise<DraftPreliminarySqlOutput> {
  const loaded = await loadSchema(deps, input.ctx);
  const vars = { ...(await questionPromptVars(deps, input.ctx)), schemaView: schemaView(loaded, input.ctx, input.view) };
  const answer = await askModel(deps.llm, 'draft-preliminary-sql', vars);
  const sql = cleanSql(answer.value.sql);
  const analysis = (await sharedSqlAnalyzer()).analyze(sql, input.ctx.dialect, schemaHintOf(loaded.schema));
  if (!analysis.ok) return { view: input.view, sql, columns: [], parsed: false, usage: answer.usage };
  const known = loaded.schema;
  const refs = analysis.columns
    .filter((c) => c.column !== '*' && c.table !== null)
    .map((c) => ({ table: c.table!, column: c.column }))
    .filter((c) =>
      known.tables.some((t) => t.name.toLowerCase() === c.table.toLowerCase() && t.columns.some((x) => x.name.toLowerCase() === c.column.toLowerCase())),
    );
  return { view: input.view, sql, columns: mergeFocus(...focusFromColumns(refs)), parsed: true, usage: answer.usage };
}
