import { formatFinding, type Finding } from '../../core/correction/finding';
import type { CorrectionRule } from '../../core/knowledge/knowledge-types';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { cleanSql } from '../generation/generated-sql';
import { groupsRowsItDoesNotLabel, queryMayShow, rewriteBeyondRules } from '../../core/mining/sql-differences';
import { loadCorrectionRules } from '../knowledge/knowledge-store';
import { askModel, onlyValues } from '../prompts/ask-model';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface RuleCorrectionInput {
  ctx: QuestionContext;
  sql: string;
  findings: Finding[];
}

export interface RuleCorrectionOutput {
  /** The rewritten SQL, or the input SQL when no rule applied. */
  sql: string;
  appliedRules: string[];
  /** The rules shown to the model: those whose shape difference the query can show (absent in results of workers before it). */
  offeredRules?: string[];
  /** A rewrite refused because it changed the query's shape beyond what its rules say (then `sql` is the input). */
  refused?: { rules: string[]; sql: string; reason: string };
  /** None when no rule could apply, one when none was selected, two when rules were applied. */
  usage: LlmCallUsage[];
}

function renderRule(r: CorrectionRule): string {
  return `[${r.id}] ${r.gist}\n  bad: ${r.badPattern}\n  correct: ${r.correctPattern}\n  fix: ${r.fix}`;
}

/**
 * DexterSQL §3.4.1 Steps 3–4: the model selects the mined rules the revised SQL still violates
 * (usually none), and only then rewrites it with exactly those rules. The workflow schedules
 * this only when rules are stored. A rule mined from one shape difference is offered only to a
 * query that can show it (plain code, before any call): a rule against sorting where the answer
 * does not is not shown for a query without ORDER BY, where a small model would still select it.
 * And a rewrite is kept only when it changes the query's shape by its rules' differences and by
 * nothing else (`rewriteBeyondRules`): a small rewriter copies a rule's whole correct pattern
 * (a count, a join, an ORDER BY ... LIMIT 1) into a query that needed only one part of it, or none.
 * Nor is a rewrite kept that groups a query of aggregates only (`groupsRowsItDoesNotLabel`): its
 * rows would be sums or counts with nothing beside them to say whose.
 */
export async function correctWithRules(deps: QuestionLlmDeps, input: RuleCorrectionInput): Promise<RuleCorrectionOutput> {
  const rules = (await loadCorrectionRules(deps.store)).filter((r) => r.difference === undefined || queryMayShow(input.sql, r.difference));
  const offeredRules = rules.map((r) => r.id);
  if (!rules.length) return { sql: input.sql, appliedRules: [], offeredRules, usage: [] };
  const common = { question: input.ctx.question, evidence: input.ctx.evidence?.trim() || '(none)', sql: input.sql };
  const selection = await askModel(
    deps.llm,
    'select-rules',
    {
      ...common,
      report: input.findings.length ? input.findings.map((f) => `- ${formatFinding(f)}`).join('\n') : '(no problem found)',
      rules: rules.map(renderRule).join('\n\n'),
    },
    {
      narrow: onlyValues(
        'rules',
        rules.map((r) => r.id),
      ),
    },
  );
  const wanted = new Set(selection.value.rules.map((id) => id.trim().replace(/^\[|\]$/g, '')));
  const chosen = rules.filter((r) => wanted.has(r.id));
  if (!chosen.length) return { sql: input.sql, appliedRules: [], offeredRules, usage: [selection.usage] };
  const vars = await questionPromptVars(deps, input.ctx);
  const rewrite = await askModel(deps.llm, 'apply-rules', {
    ...common,
    dialect: vars.dialect,
    schema: vars.schema,
    rules: chosen.map(renderRule).join('\n\n'),
  });
  const sql = cleanSql(rewrite.value.sql);
  const usage = [selection.usage, rewrite.usage];
  const beyond = rewriteBeyondRules(
    input.sql,
    sql,
    chosen.map((r) => r.difference),
  );
  // Worded from the rewritten query's side: "the query lacks an aggregate the rewrite uses".
  const reasons = [
    ...(beyond?.unexpected ?? []).map((d) => `not in its rules: the query ${d.replace('the answer', 'the rewrite')}`),
    ...(beyond?.missing ?? []).map((d) => `its rule's change is not made (the rule: the query ${d})`),
    // A rule for a missing GROUP BY, given a query of aggregates only, groups it by a column it then does not show.
    ...(groupsRowsItDoesNotLabel(sql) && !groupsRowsItDoesNotLabel(input.sql) ? ['the rewrite groups rows it does not show: it selects only aggregates'] : []),
  ];
  if (reasons.length) {
    return { sql: input.sql, appliedRules: [], offeredRules, refused: { rules: chosen.map((r) => r.id), sql, reason: reasons.join('; ') }, usage };
  }
  return { sql, appliedRules: chosen.map((r) => r.id), offeredRules, usage };
}
