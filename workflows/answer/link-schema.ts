import { PRELIMINARY_VIEWS } from '../../core/linking/preliminary-views';
import type { OpenQuestionOutput } from '../../core/question/question-opening';
import { mergeFocus } from '../../core/linking/focused-schema';
import type { FocusedTable } from '../../core/question/focused-table';
import { failureMessage } from '../kit/step-runner';
import type { QuestionRun } from './question-run';

const STAGE = 'linking';

function describeFocus(focus: FocusedTable[] | null): string {
  return focus === null ? 'whole schema' : `${focus.length} tables, ${focus.reduce((n, t) => n + t.columns.length, 0)} columns`;
}

/**
 * Schema linking, by the configured strategy:
 * - dextersql (§3.2): Step 1 retrieval from the profile and value indices (the preliminary focus
 *   and the matched values), then Step 2 three preliminary SQLs (over the focus, the whole
 *   schema, and the profiles) whose columns join the focus;
 * - decosearch (§3.3, Algorithm 2): keywords → tables → columns, names remapped, an empty
 *   pruning falling back to the whole schema;
 * - full-schema: nothing to link (the "no selector" ablation).
 * A failed model step leaves the focus as it was, recorded in the trace.
 */
export async function linkSchema(run: QuestionRun, opened: OpenQuestionOutput): Promise<void> {
  const { strategy, preliminarySql } = run.config.linking;
  if (strategy === 'full-schema')
    run.runner.note(STAGE, 'fullSchema', 'no schema linking', { skipped: 'linking is switched off (selector ablation): prompts show the whole schema' });
  else if (strategy === 'decosearch') await decoSearchSelector(run);
  else if (!opened.prepared)
    run.runner.note(STAGE, 'retrieveSchemaElements', 'retrieval needs a prepared database', { skipped: 'not prepared: prompts show the whole schema' });
  else {
    const retrieved = await run.runner.step(
      { stage: STAGE, name: 'retrieveSchemaElements', summary: 'step 1: profile index + value index → preliminary focused schema' },
      (o) => run.online.retrieveSchemaElements.executeWithOptions(o, [{ question: run.input.question, manifest: opened.prepared! }]),
      (r) => ({
        outcome: `${describeFocus(r.focus)} (${r.counts.profile} by profile, ${r.counts.value} by value, ${r.counts.join} join keys)`,
        detail: { grounding: r.grounding },
      }),
    );
    run.ctx = { ...run.ctx, focus: retrieved.focus, grounding: retrieved.grounding.slice(0, 20) };
    if (preliminarySql) await preliminaryDrafts(run);
    else run.runner.note(STAGE, 'draftPreliminarySql', 'step 2: preliminary SQLs', { skipped: 'switched off (preliminary-sql ablation)' });
  }
  run.runner.stageDone(STAGE);
}

async function preliminaryDrafts(run: QuestionRun): Promise<void> {
  const ctx = run.ctx;
  const drafts = await Promise.all(
    PRELIMINARY_VIEWS.map((view) =>
      run.runner
        .paidStep(
          {
            stage: STAGE,
            name: 'draftPreliminarySql',
            summary: `step 2: preliminary SQL over the ${view === 'focused' ? 'preliminary focus' : view === 'full' ? 'whole schema' : 'schema with profiles'}`,
            llmCalls: 1,
          },
          (o) => run.llm.draftPreliminarySql.executeWithOptions(o, [{ ctx, view }]),
          (r) => ({ outcome: `${r.parsed ? describeFocus(r.columns) : 'did not parse'}: ${r.sql}` }),
        )
        .catch(() => null),
    ),
  );
  const done = drafts.filter((d) => d !== null);
  run.drafts = done.map((d) => ({ view: d.view, sql: d.sql }));
  const before = run.ctx.focus ?? [];
  const focus = mergeFocus(...before, ...done.flatMap((d) => d.columns));
  const added = focus.reduce((n, t) => n + t.columns.length, 0) - before.reduce((n, t) => n + t.columns.length, 0);
  run.runner.note(STAGE, 'finalFocusedSchema', 'step 2: columns of the preliminary SQLs join the focus', {
    outcome: `${describeFocus(focus)} (+${added} columns from ${done.length} drafts)`,
  });
  run.ctx = { ...run.ctx, focus };
}

async function decoSearchSelector(run: QuestionRun): Promise<void> {
  const ctx = run.ctx;
  try {
    const keywords = await run.runner.paidStep(
      { stage: STAGE, name: 'extractKeywords', summary: 'selector 1/3: keywords and entities from the question and hint', llmCalls: 1 },
      (o) => run.llm.extractKeywords.executeWithOptions(o, [ctx]),
      (r) => ({ outcome: r.keywords.join(', ') }),
    );
    if (!keywords) return;
    const tables = await run.runner.paidStep(
      { stage: STAGE, name: 'selectTables', summary: 'selector 2/3: the tables the query needs', llmCalls: 1 },
      (o) => run.llm.selectTables.executeWithOptions(o, [{ ctx, keywords: keywords.keywords }]),
      (r) => ({ outcome: `${r.tables.join(', ') || 'none'}${r.returned.length !== r.tables.length ? ` (model said ${r.returned.join(', ')})` : ''}` }),
    );
    if (!tables) return;
    if (!tables.tables.length) {
      run.runner.note(STAGE, 'selectColumns', 'no table matched', { outcome: 'fallback: the whole schema (Algorithm 2, line 18)' });
      return;
    }
    const columns = await run.runner.paidStep(
      { stage: STAGE, name: 'selectColumns', summary: 'selector 3/3: the columns of those tables', llmCalls: 1 },
      (o) =>
        run.llm.selectColumns.executeWithOptions(o, [
          { ctx, keywords: keywords.keywords, tables: tables.tables, complete: run.config.linking.completeSelection },
        ]),
      (r) => ({
        outcome: r.focus === null ? 'nothing matched: fallback to the whole schema' : describeFocus(r.focus),
        detail: { modelSaid: r.returned, completedWith: r.completed },
      }),
    );
    if (columns) run.ctx = { ...run.ctx, focus: columns.focus };
  } catch (err) {
    run.runner.note(STAGE, 'selector', 'the schema selector failed', { outcome: `fallback: the whole schema (${failureMessage(err)})` });
  }
}
