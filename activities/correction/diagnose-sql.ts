import { resultKey } from '../../core/selection/result-key';
import type { SqlRow } from '../../core/sql-value';
import type { AnswerRows, Diagnosis } from '../../core/question/diagnosis';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { ResultByteLimits } from '../../core/result-bytes';
import { answerResult, firstRows } from '../database/answer-result';
import type { DatabaseRegistry } from '../database/database-registry';
import { QueryTimeout, ReadOnlyViolation } from '../database/target-database';
import { loadSchema } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';
import { schemaHintOf, sharedSqlAnalyzer } from '../sql/shared-analyzer';
import type { CheckInput } from './checks/check-input';
import { runChecks } from './checks';

export interface DiagnoseSqlInput {
  ctx: QuestionContext;
  sql: string;
  timeoutMs: number;
  /** Rows read to tell results apart (clustering); a larger result is keyed as cut. */
  maxRows: number;
  /**
   * The question's cell limit: cells are cut to it as they are read, so large cells neither fill
   * the memory bound nor enter the result key (results differing only past it cluster together).
   * Absent (a workflow started before it was passed): whole cells.
   */
  maxCellBytes?: number;
  /**
   * When set, the rows are also returned as the final answer returns them (row and byte limits
   * of the question), so a run with one candidate does not execute its SQL a second time.
   */
  answer?: ResultByteLimits & { maxRows: number };
  /** Also run the checks that hold the query against the question (`correction.questionChecks`); absent in workflows started before it existed. */
  questionChecks?: boolean;
}

const PREVIEW_ROWS = 5;
const PREVIEW_CELL_CHARS = 60;

/** The first rows, cells cut short: enough for a judge to see what a candidate returns, small enough for history. */
function preview(rows: SqlRow[]): SqlRow[] {
  return rows
    .slice(0, PREVIEW_ROWS)
    .map((r) => r.map((v) => (typeof v === 'string' && v.length > PREVIEW_CELL_CHARS ? `${v.slice(0, PREVIEW_CELL_CHARS)}…` : v)));
}

/**
 * DexterSQL §3.4.1 Step 1 for one candidate: parse it, run it read-only (the same guard and
 * timeout as every execution), and run the diagnostic checks over both. The result's key lets
 * selection cluster candidates without their rows entering workflow history.
 */
export async function diagnoseSql(deps: { databases: DatabaseRegistry; store: ArtifactStore }, input: DiagnoseSqlInput): Promise<Diagnosis> {
  const db = await deps.databases.openOrFail(input.ctx.database);
  const { schema } = await loadSchema(deps, input.ctx);
  const analyzer = await sharedSqlAnalyzer();
  const hint = schemaHintOf(schema);
  const analyze = (sql: string) => analyzer.analyze(sql, input.ctx.dialect, hint);
  const analysis = analyze(input.sql);
  let execution: CheckInput['execution'];
  let answer: AnswerRows | undefined;
  try {
    // One execution serves both: read as many rows as the larger of the two limits asks for.
    const maxCellBytes = input.answer?.maxCellBytes ?? input.maxCellBytes;
    const read = await db.execute(input.sql, { timeoutMs: input.timeoutMs, maxRows: Math.max(input.maxRows, input.answer?.maxRows ?? 0), maxCellBytes });
    const result = firstRows(read, input.maxRows);
    execution = { ok: true, columns: result.columns, rows: result.rows, truncated: result.truncated };
    if (input.answer) answer = { sql: input.sql, result: answerResult(read, input.answer) };
  } catch (err) {
    const kind = err instanceof QueryTimeout ? 'timeout' : err instanceof ReadOnlyViolation ? 'read_only_violation' : 'sql_error';
    execution = { ok: false, kind, message: (err as Error).message };
  }
  const findings = runChecks({ question: input.ctx.question, sql: input.sql, schema, analysis, analyze, execution }, { questionChecks: input.questionChecks });
  return {
    findings,
    execution: execution.ok
      ? {
          ok: true,
          rowCount: execution.rows.length,
          truncated: execution.truncated,
          columns: execution.columns,
          resultKey: resultKey(execution.rows, execution.truncated),
          preview: preview(execution.rows),
          ...(answer ? { answer } : {}),
        }
      : { ok: false, kind: execution.kind, error: execution.message },
  };
}
