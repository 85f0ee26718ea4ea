import type { ExecuteSqlInput } from '../../activities/database/database-activities';
import type { ExecuteSqlOutput } from '../../core/question/sql-execution';

export interface HostileStatement {
  dialect: 'sqlite' | 'mysql' | 'postgres';
  category: string;
  sql: string;
  /** `refused`: a clear error; `bounded`: a harmless read within the limits; `either`: runaway and giant queries, bounded by time, rows and bytes. */
  expect: 'refused' | 'bounded' | 'either';
  /** Its own time limit, when it must run long enough to meet another bound (a value built to hundreds of MB, temp files filled to their limit). */
  timeoutMs?: number;
}

export const CORPUS_LIMITS = { timeoutMs: 1500, maxRows: 50, maxCellBytes: 4096, maxResultBytes: 256 * 1024 };

/**
 * Runs each statement through the executeSql activity, exactly as a workflow runs generated SQL,
 * with `{NAME}` placeholders substituted, and lists what went against its expectation.
 */
export async function runHostileCorpus(
  executeSql: (input: ExecuteSqlInput) => Promise<ExecuteSqlOutput>,
  database: string,
  statements: HostileStatement[],
  substitutions: Record<string, string>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const statement of statements) {
    const sql = Object.entries(substitutions).reduce((text, [name, value]) => text.replaceAll(`{${name}}`, value), statement.sql);
    const started = Date.now();
    const timeoutMs = statement.timeoutMs ?? CORPUS_LIMITS.timeoutMs;
    let out: ExecuteSqlOutput;
    try {
      out = await executeSql({ database, sql, ...CORPUS_LIMITS, timeoutMs });
    } catch (err) {
      problems.push(`${sql}: the activity threw ${(err as Error).message}`);
      continue;
    }
    const elapsed = Date.now() - started;
    if (elapsed > timeoutMs + 8000) problems.push(`${sql}: took ${elapsed} ms`);
    if (!out.ok) {
      if (statement.expect === 'bounded') problems.push(`${sql}: expected a bounded read, got ${out.error.kind}: ${out.error.message}`);
      if (!out.error.message.trim()) problems.push(`${sql}: an error without a message`);
      continue;
    }
    if (statement.expect === 'refused') problems.push(`${sql}: expected a refusal, it ran (${JSON.stringify(out.result.rows).slice(0, 120)})`);
    if (out.result.rows.length > CORPUS_LIMITS.maxRows) problems.push(`${sql}: ${out.result.rows.length} rows`);
    if (Buffer.byteLength(JSON.stringify(out.result.rows)) > CORPUS_LIMITS.maxResultBytes)
      problems.push(`${sql}: result over ${CORPUS_LIMITS.maxResultBytes} bytes`);
  }
  return problems;
}
