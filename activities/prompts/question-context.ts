import { dialectName, type SchemaInfo } from '../../core/database/schema-types';
import { restrictSchema } from '../../core/linking/focused-schema';
import type { FocusedTable } from '../../core/question/focused-table';
import type { ColumnProfile } from '../../core/profiling/column-profile';
import { renderSchemaDdl, type ColumnNotes } from '../../core/schema-text';
import type { QuestionContext } from '../../core/question/question-context';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { loadPreparedProfiles } from '../prepared/load-prepared';
import { loadSharedText } from './render-prompt';

export interface ContextDeps {
  databases: DatabaseRegistry;
  store: ArtifactStore;
}

export interface LoadedSchema {
  schema: SchemaInfo;
  /** Profiles by `table.column` lower-cased; empty for an unprepared database. */
  profiles: Map<string, ColumnProfile>;
}

export async function loadSchema(deps: ContextDeps, ctx: Pick<QuestionContext, 'database' | 'prepared'>): Promise<LoadedSchema> {
  if (ctx.prepared) {
    const { stored, columns } = await loadPreparedProfiles(deps.store, ctx.prepared.databaseId, ctx.prepared.versions);
    return { schema: stored.schema, profiles: new Map(columns.map((p) => [`${p.table}.${p.column}`.toLowerCase(), p])) };
  }
  const db = await deps.databases.openOrFail(ctx.database);
  return { schema: await db.schema(), profiles: new Map() };
}

const EXAMPLES_PER_COLUMN = 3;
const EXAMPLE_CHARS = 40;

/** A column's prompt note from its profile: documentation first, then a few frequent values. */
function columnNote(profile: ColumnProfile): string | undefined {
  const parts: string[] = [];
  const doc = profile.documentation;
  if (doc?.description) parts.push(doc.description.slice(0, 120));
  if (doc?.values) parts.push(`values: ${doc.values.slice(0, 120)}`);
  if (profile.textual && !profile.identifier) {
    const examples = profile.mostFrequent.slice(0, EXAMPLES_PER_COLUMN).map((v) => `'${String(v.value).slice(0, EXAMPLE_CHARS)}'`);
    if (examples.length) parts.push(`e.g. ${examples.join(', ')}`);
  }
  return parts.length ? parts.join('; ') : undefined;
}

/** The focused schema as DDL, each column annotated from its profile when the database is prepared. */
export function renderFocusedSchema(loaded: LoadedSchema, focus: FocusedTable[] | null): string {
  const shown = restrictSchema(loaded.schema, focus);
  // Notes only for the columns shown: a focused prompt over a large schema reads a few profiles, not all.
  const notes: ColumnNotes = new Map();
  for (const table of shown.tables) {
    for (const column of table.columns) {
      const key = `${table.name}.${column.name}`.toLowerCase();
      const profile = loaded.profiles.get(key);
      const note = profile && columnNote(profile);
      if (note) notes.set(key, note);
    }
  }
  return renderSchemaDdl(shown, notes);
}

/** The template variables every question prompt shares. */
export async function questionPromptVars(deps: ContextDeps, ctx: QuestionContext): Promise<Record<string, string>> {
  const loaded = await loadSchema(deps, ctx);
  return {
    dialect: dialectName(ctx.dialect),
    question: ctx.question,
    evidence: ctx.evidence?.trim() || '(none)',
    schema: renderFocusedSchema(loaded, ctx.focus),
    knowledge: knowledgeBlock(ctx),
    hintRules: hintRules(ctx.evidence),
  };
}

/**
 * The rules for reading a hint (prompts/shared/hint-rules.md), only when the question has one:
 * written for BIRD-style evidence ("names rather than ids", LIKE), they mislead where there is none.
 */
export function hintRules(evidence: string | undefined): string {
  return evidence?.trim() ? ` ${loadSharedText('hint-rules')}` : '';
}

/**
 * Matched values and selected notes, each under its heading, or nothing at all when the stages
 * that produce them did not run (DecoSearch's prompts have neither; no empty headings).
 */
function knowledgeBlock(ctx: QuestionContext): string {
  const parts: string[] = [];
  if (ctx.grounding.length) parts.push(`Values matched in the database:\n${ctx.grounding.map((g) => `- ${g}`).join('\n')}`);
  if (ctx.notes.length) parts.push(`Notes on columns that are easy to confuse:\n${ctx.notes.map((n) => `- ${n}`).join('\n')}`);
  return parts.map((p) => `${p}\n\n`).join('');
}
