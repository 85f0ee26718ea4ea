import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { AnswerQuestionResult, CandidateReport, Outcome } from '../../core/answer-question-types';
import type { RunError } from '../../core/run-trace';
import { pipelineLabel } from '../../core/pipeline/pipeline-config';
import { OUTCOME, REFINEMENTS, ROUTE, TOKENS } from '../../core/search-attributes';
import { totalTokens } from '../../core/usage';
import type { QuestionRun } from './question-run';
import type { StageKit } from './stage-kit';
import type { Selection } from './select-candidate';

/** The run's result from what the router recorded of the stages; also the search attributes and final details. */
export function finishRun(
  kit: StageKit,
  run: Readonly<QuestionRun>,
  outcome: Outcome,
  rest: Partial<AnswerQuestionResult>,
  selection: Selection | null,
  error?: RunError,
): AnswerQuestionResult {
  const { budget, runner, config, input } = kit;
  upsertSearchAttributes([
    { key: OUTCOME, value: outcome },
    { key: ROUTE, value: run.route },
    { key: TOKENS, value: totalTokens(budget.usage) },
    { key: REFINEMENTS, value: budget.repairs },
  ]);
  setCurrentDetails(`**${outcome}**${error ? `: ${error.message}` : ''}`);
  const clusterOf = (i: number) => selection?.clusters.findIndex((c) => c.members.includes(i)) ?? -1;
  const candidates: CandidateReport[] = run.candidates.map((c, i) => {
    const execution = c.diagnosis?.execution;
    return {
      path: c.path,
      generatedSql: c.generatedSql,
      sql: c.sql,
      corrections: c.corrections,
      findings: (c.diagnosis?.findings ?? []).map((f) => `${f.check}: ${f.message}`),
      execution: !execution
        ? { ok: false, error: 'not executed' }
        : execution.ok
          ? { ok: true, rowCount: execution.rowCount, truncated: execution.truncated }
          : { ok: false, error: execution.error },
      cluster: clusterOf(i) >= 0 ? clusterOf(i) : null,
      confidence: clusterOf(i) >= 0 ? selection!.clusters[clusterOf(i)].confidence : 0,
    };
  });
  const stopped = budget.stoppedBy;
  return {
    outcome,
    route: run.route,
    pipeline: { preset: config.preset, ablations: config.ablations, overrides: config.overrides, label: pipelineLabel(config) },
    question: input.question,
    database: input.database,
    sql: null,
    columns: [],
    rows: [],
    truncated: false,
    ...(stopped ? { stoppedBy: { kind: stopped.kind, message: stopped.message } } : {}),
    ...(run.judgement ? { judgement: run.judgement } : {}),
    focusedSchema: run.ctx.focus,
    candidates,
    ...(selection ? { selection: selection.report } : {}),
    ...(run.dag ? { dag: run.dag } : {}),
    repairs: budget.repairs,
    usage: budget.usage,
    trace: runner.trace,
    ...rest,
    ...(error ? { error } : {}),
  };
}
