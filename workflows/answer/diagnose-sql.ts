import type { Diagnosis } from '../../core/question/diagnosis';
import type { QuestionContext } from '../../core/question/question-context';
import type { StageKit } from './stage-kit';

/** Rows read per candidate to tell results apart; more are keyed as "cut" (never equal to a complete result). */
const DIAGNOSIS_MAX_ROWS = 10_000;

/** Diagnoses one SQL (parse, read-only run, checks), as the step `label` of `stage`. */
export type DiagnoseSql = (sql: string, label: string, stage: string) => Promise<Diagnosis>;

/**
 * The diagnosis step of correction and selection. `keepAnswerRows`: the run has one candidate, which
 * will be the answer if it runs, so its diagnosis keeps the rows under the answer's limits and the
 * SQL runs once. With several, only the chosen one's rows are wanted, and history would hold them all.
 */
export function sqlDiagnoser(kit: StageKit, ctx: QuestionContext, keepAnswerRows: boolean): DiagnoseSql {
  const { maxRows, maxCellBytes, maxResultBytes } = kit.limits;
  const answer = keepAnswerRows ? { answer: { maxRows, maxCellBytes, maxResultBytes } } : {};
  return (sql, label, stage) =>
    kit.runner.step(
      { stage, name: 'diagnoseSql', summary: `diagnose ${label}: parse, run read-only, checks` },
      (o) =>
        kit.online.diagnoseSql.executeWithOptions(o, [
          {
            ctx,
            sql,
            timeoutMs: kit.limits.sqlTimeoutMs,
            maxRows: DIAGNOSIS_MAX_ROWS,
            maxCellBytes,
            ...answer,
            ...(kit.config.correction.questionChecks ? { questionChecks: true } : {}),
          },
        ]),
      (d) => ({
        outcome: `${d.execution.ok ? `${d.execution.rowCount} rows` : `error: ${d.execution.error}`}${d.findings.length ? `; ${d.findings.map((f) => f.check).join(', ')}` : '; no findings'}`,
      }),
    );
}
