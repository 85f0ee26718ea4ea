import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import { REPORTED_REJECTIONS, type FewShotPageResult } from '../../core/knowledge/few-shot-job-types';
import { createDatabaseActivities } from '../database/database-activities';
import type { DatabaseRegistry } from '../database/database-registry';
import { heartbeat } from '../heartbeat/activity-heartbeat';
import type { FewShotCandidate } from './few-shot-sources';

/**
 * Reading the first row is enough to know the SQL runs: the guard has accepted it, the engine has
 * compiled it against the schema, and it produced a result within the timeout. The rows
 * themselves are never shown, so none are kept.
 */
const RUN_LIMITS = { maxRows: 1, maxCellBytes: 16, maxResultBytes: 1024 };
/** A rejection is reported, not stored: enough of the question and the reason to find and fix the line. */
const MAX_QUESTION_CHARS = 200;
const MAX_REASON_CHARS = 500;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The candidates that may be indexed: every example of a user's file has its SQL run once on its
 * database through the product's guarded, read-only execution (the statement guard, then the
 * engine's read-only connection, with `timeoutMs`), and one that is refused, fails or times out is
 * left out and reported. Examples of named training sets are not run.
 */
export async function validateFewShotExamples(
  databases: DatabaseRegistry,
  candidates: FewShotCandidate[],
  timeoutMs: number,
): Promise<{ kept: FewShotExample[] } & Omit<FewShotPageResult, 'examples'>> {
  const { executeSql } = createDatabaseActivities(databases);
  const result: { kept: FewShotExample[] } & Omit<FewShotPageResult, 'examples'> = { kept: [], files: {}, rejections: [] };
  for (const [done, { example, check }] of candidates.entries()) {
    if (!check) {
      result.kept.push(example);
      continue;
    }
    const reason = await whyNotRunnable(executeSql, check.database, example.sql, timeoutMs);
    const count = (result.files[check.source] ??= { indexed: 0, rejected: 0 });
    if (reason === null) {
      count.indexed++;
      result.kept.push(example);
    } else {
      count.rejected++;
      if (result.rejections.length < REPORTED_REJECTIONS) {
        result.rejections.push({
          source: check.source,
          line: check.line,
          question: cut(example.question, MAX_QUESTION_CHARS),
          reason: cut(reason, MAX_REASON_CHARS),
        });
      }
    }
    heartbeat({ checked: done + 1 });
  }
  return result;
}

/** Null when the SQL runs; otherwise why not (the database does not open, the guard refuses it, an error, the timeout). */
async function whyNotRunnable(
  executeSql: ReturnType<typeof createDatabaseActivities>['executeSql'],
  database: string,
  sql: string,
  timeoutMs: number,
): Promise<string | null> {
  try {
    const run = await executeSql({ database, sql, timeoutMs, ...RUN_LIMITS });
    return run.ok ? null : `${run.error.kind}: ${run.error.message}`;
  } catch (err) {
    // executeSql answers every failure of the SQL itself; what it throws is the database not opening.
    return (err as Error).message;
  }
}
