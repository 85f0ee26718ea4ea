import { describePreliminaryView, type PreliminaryView } from '../../core/linking/preliminary-views';
import type { OpenQuestionOutput } from '../../core/question/question-opening';
import { mergeFocus } from '../../core/linking/focused-schema';
import type { FocusedTable } from '../../core/question/focused-table';
import type { QuestionContext } from '../../core/question/question-context';
import { failureMessage } from '../kit/step-runner';
import type { Draft } from './question-run';
import type { StageKit } from './stage-kit';

const STAGE = 'linking';

/** What schema linking produces: the focus and grounding every later prompt shows, and the preliminary SQLs. */
export interface LinkedSchema {
  focus: QuestionContext['focus'];
  grounding: QuestionContext['grounding'];
  /** DexterSQL's preliminary SQLs (none for other strategies, or when Step 2 is off or failed). */
  drafts: Draft[];
}

function describeFocus(focus: FocusedTable[] | null): string {
  return focus === null ? 'whole schema' : `${focus.length} tables, ${focus.reduce((n, t) => n + t.columns.length, 0)} columns`;
}

/**
 * Schema linking, by the configured strategy:
 * - dextersql (§3.2): Step 1 retrieval from the profile and value indices (the preliminary focus
 *   and the matched values), then Step 2 preliminary SQLs (over the focus, the whole schema, and
 *   the profiles: `linking.preliminaryViews`) whose columns join the focus;
 * - decosearch (§3.3, Algorithm 2): keywords → tables → columns, names remapped, an empty
 *   pruning falling back to the whole schema;
 * - full-schema: nothing to link (the "no selector" ablation).
 * `linking.matchValues` decides whether the values retrieval matched reach the prompts (the other
 * strategies then run Step 1 for its values alone; their focus stays their own).
 * A failed model step leaves the focus as it was in `ctx`, recorded in the trace.
 */
export async function linkSchema(kit: StageKit, ctx: QuestionContext, prepared: OpenQuestionOutput['prepared']): Promise<LinkedSchema> {
  const { strategy, preliminaryViews, matchValues } = kit.config.linking;
  const unlinked: LinkedSchema = { focus: ctx.focus, grounding: ctx.grounding, drafts: [] };
  let linked = unlinked;
  if (strategy === 'dextersql') {
    const retrieved = await retrieve(kit, prepared, 'preliminary focused schema');
    if (retrieved) {
      linked = { ...unlinked, focus: retrieved.focus, grounding: matchValues ? retrieved.grounding : ctx.grounding };
      if (preliminaryViews.length)
        linked = { ...linked, ...(await preliminaryDrafts(kit, { ...ctx, focus: linked.focus, grounding: linked.grounding }, preliminaryViews)) };
      else kit.runner.note(STAGE, 'draftPreliminarySql', 'step 2: preliminary SQLs', { skipped: 'switched off (preliminary-sql ablation)' });
    }
  } else {
    if (strategy === 'full-schema')
      kit.runner.note(STAGE, 'fullSchema', 'no schema linking', { skipped: 'linking is switched off (selector ablation): prompts show the whole schema' });
    const values = matchValues ? await retrieve(kit, prepared, 'matched values only') : null;
    const focus = strategy === 'decosearch' ? await decoSearchSelector(kit, ctx) : ctx.focus;
    linked = { ...unlinked, focus, grounding: values?.grounding ?? ctx.grounding };
  }
  kit.runner.stageDone(STAGE);
  return linked;
}

/** Matched values kept for the prompts: the first ones, as retrieval ranks them. */
const MATCHED_VALUES_SHOWN = 20;

/** Step 1 from the profile and value indices, or null (noted) when the database has none. */
async function retrieve(
  kit: StageKit,
  prepared: OpenQuestionOutput['prepared'],
  wanted: string,
): Promise<{ focus: FocusedTable[]; grounding: string[] } | null> {
  if (!prepared) {
    kit.runner.note(STAGE, 'retrieveSchemaElements', 'retrieval needs a prepared database', {
      skipped: 'not prepared: prompts show the whole schema, no matched values',
    });
    return null;
  }
  const retrieved = await kit.runner.step(
    { stage: STAGE, name: 'retrieveSchemaElements', summary: `step 1: profile index + value index → ${wanted}` },
    (o) => kit.online.retrieveSchemaElements.executeWithOptions(o, [{ question: kit.input.question, manifest: prepared }]),
    (r) => ({
      outcome: `${describeFocus(r.focus)} (${r.counts.profile} by profile, ${r.counts.value} by value, ${r.counts.join} join keys)`,
      detail: { grounding: r.grounding },
    }),
  );
  return { focus: retrieved.focus, grounding: retrieved.grounding.slice(0, MATCHED_VALUES_SHOWN) };
}

/** Step 2: one preliminary SQL per view (the paper's three), given the retrieved focus (`ctx`); their columns join it. */
async function preliminaryDrafts(kit: StageKit, ctx: QuestionContext, views: PreliminaryView[]): Promise<Pick<LinkedSchema, 'focus' | 'drafts'>> {
  const drafts = await Promise.all(
    views.map((view) =>
      kit.runner
        .paidStep(
          {
            stage: STAGE,
            name: 'draftPreliminarySql',
            summary: `step 2: preliminary SQL over the ${describePreliminaryView(view)}`,
            llmCalls: 1,
          },
          (o) => kit.llm.draftPreliminarySql.executeWithOptions(o, [{ ctx, view }]),
          (r) => ({ outcome: `${r.parsed ? describeFocus(r.columns) : 'did not parse'}: ${r.sql}` }),
        )
        .catch(() => null),
    ),
  );
  const done = drafts.filter((d) => d !== null);
  const before = ctx.focus ?? [];
  const focus = mergeFocus(...before, ...done.flatMap((d) => d.columns));
  const added = focus.reduce((n, t) => n + t.columns.length, 0) - before.reduce((n, t) => n + t.columns.length, 0);
  kit.runner.note(STAGE, 'finalFocusedSchema', 'step 2: columns of the preliminary SQLs join the focus', {
    outcome: `${describeFocus(focus)} (+${added} columns from ${done.length} drafts)`,
  });
  return { focus, drafts: done.map((d) => ({ view: d.view, sql: d.sql })) };
}

/** DecoSearch's selector: the focus it chose, or the one in `ctx` (the whole schema) when it chose none or failed. */
async function decoSearchSelector(kit: StageKit, ctx: QuestionContext): Promise<QuestionContext['focus']> {
  try {
    const keywords = await kit.runner.paidStep(
      { stage: STAGE, name: 'extractKeywords', summary: 'selector 1/3: keywords and entities from the question and hint', llmCalls: 1 },
      (o) => kit.llm.extractKeywords.executeWithOptions(o, [ctx]),
      (r) => ({ outcome: r.keywords.join(', ') }),
    );
    if (!keywords) return ctx.focus;
    const tables = await kit.runner.paidStep(
      { stage: STAGE, name: 'selectTables', summary: 'selector 2/3: the tables the query needs', llmCalls: 1 },
      (o) => kit.llm.selectTables.executeWithOptions(o, [{ ctx, keywords: keywords.keywords }]),
      (r) => ({ outcome: `${r.tables.join(', ') || 'none'}${r.returned.length !== r.tables.length ? ` (model said ${r.returned.join(', ')})` : ''}` }),
    );
    if (!tables) return ctx.focus;
    if (!tables.tables.length) {
      kit.runner.note(STAGE, 'selectColumns', 'no table matched', { outcome: 'fallback: the whole schema (Algorithm 2, line 18)' });
      return ctx.focus;
    }
    const columns = await kit.runner.paidStep(
      { stage: STAGE, name: 'selectColumns', summary: 'selector 3/3: the columns of those tables', llmCalls: 1 },
      (o) =>
        kit.llm.selectColumns.executeWithOptions(o, [
          { ctx, keywords: keywords.keywords, tables: tables.tables, complete: kit.config.linking.completeSelection },
        ]),
      (r) => ({
        outcome: r.focus === null ? 'nothing matched: fallback to the whole schema' : describeFocus(r.focus),
        detail: { modelSaid: r.returned, completedWith: r.completed },
      }),
    );
    return columns ? columns.focus : ctx.focus;
  } catch (err) {
    kit.runner.note(STAGE, 'selector', 'the schema selector failed', { outcome: `fallback: the whole schema (${failureMessage(err)})` });
    return ctx.focus;
  }
}
