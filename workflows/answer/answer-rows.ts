import type { ExecuteSqlOutput } from '../../core/question/sql-execution';
import type { StageKit } from './stage-kit';
import type { WorkingCandidate } from './working-candidate';

/**
 * The chosen candidate's rows for the caller, under the answer's limits (row cap, byte limits,
 * timeout): the one way a run gets them. What the candidate's own diagnosis already learned is
 * used; only otherwise does the SQL run once more.
 */
export async function answerRows(kit: StageKit, chosen: WorkingCandidate): Promise<ExecuteSqlOutput> {
  const known = knownFromDiagnosis(chosen);
  if (!known) return executeChosen(kit, chosen);
  kit.runner.note('answer', 'answerRows', known.why, { outcome: describeRows(known.rows) });
  return known.rows;
}

/**
 * What the chosen SQL's diagnosis already tells of its answer, if anything:
 * - its rows, when the diagnosis kept them under the answer's limits (a run with one candidate);
 * - its failure (same statement, same timeout): running it again would cost another timeout (a
 *   SLEEP or a runaway join twice, and the database's temp files with it) to learn the same error.
 */
function knownFromDiagnosis(chosen: WorkingCandidate): { rows: ExecuteSqlOutput; why: string } | undefined {
  const execution = chosen.diagnosis?.execution;
  if (!execution) return undefined;
  if (!execution.ok)
    return {
      rows: { ok: false, error: { kind: executionErrorKind(execution.kind), message: execution.error } },
      why: 'the chosen SQL already failed read-only in its diagnosis: it is not run again',
    };
  const kept = execution.answer;
  if (!kept || kept.sql !== chosen.sql) return undefined;
  return {
    rows: { ok: true, result: kept.result },
    why: "the chosen SQL already ran read-only in its diagnosis, under the answer's limits: its rows are the answer",
  };
}

function executionErrorKind(kind: string): Extract<ExecuteSqlOutput, { ok: false }>['error']['kind'] {
  return kind === 'timeout' || kind === 'read_only_violation' ? kind : 'sql_error';
}

function executeChosen(kit: StageKit, chosen: WorkingCandidate): Promise<ExecuteSqlOutput> {
  return kit.runner.step(
    { stage: 'answer', name: 'executeSql', summary: `run the chosen SQL read-only (timeout ${kit.limits.sqlTimeoutMs} ms, ≤ ${kit.limits.maxRows} rows)` },
    (o) =>
      kit.online.executeSql.executeWithOptions(o, [
        {
          database: kit.input.database,
          sql: chosen.sql,
          timeoutMs: kit.limits.sqlTimeoutMs,
          maxRows: kit.limits.maxRows,
          maxCellBytes: kit.limits.maxCellBytes,
          maxResultBytes: kit.limits.maxResultBytes,
        },
      ]),
    (e) => ({ outcome: describeRows(e) }),
  );
}

function describeRows(e: ExecuteSqlOutput): string {
  return e.ok
    ? `${e.result.rows.length} rows${e.result.truncated ? ' (cut)' : ''}${e.result.byteLimit ? `, ${e.result.byteLimit.cutCells} cells cut to ${e.result.byteLimit.maxCellBytes} bytes` : ''}`
    : `error: ${e.error.message}`;
}
