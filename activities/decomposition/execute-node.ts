import { prependCtes } from '../../core/dag/prepend-ctes';
import { boundRowBytes } from '../../core/result-bytes';
import { relationName, type NodeResultRef, type NodeRun, type StoredNodeResult } from '../../core/dag/node-results';
import type { SqlRow } from '../../core/sql-value';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { quoteIdentifier } from '../database/sql-identifiers';
import { loadNodeResults, saveNodeResult } from './node-result-store';
import { relationsFor, resolveNodeSql, uniqueColumnNames, type LoadedUpstream } from './resolve-node-sql';

export interface ExecuteNodeInput {
  database: string;
  node: { id: number; question: string };
  /** The SQL the model wrote for the node, placeholders included. */
  sql: string;
  /** The node's inputs: its dependencies' results. */
  upstream: NodeResultRef[];
  /** Where to store this node's rows (unique per run, node and attempt). */
  resultKey: string;
  /** Up to this many rows go downstream as a value list (θ); more become a relation. */
  inlineRows: number;
  timeoutMs: number;
  /** Rows kept from the node's result (a relation larger than this is cut, and says so). */
  maxRows: number;
  /** A longer text or BLOB cell is cut to this many bytes (the question's `maxCellBytes`). */
  maxCellBytes: number;
}

/**
 * A node's stored rows stay within this: they are read back into prompts and, as a relation,
 * bound as one parameter (MySQL's default max_allowed_packet is 16 MiB).
 */
export const NODE_MAX_RESULT_BYTES = 8 * 1024 * 1024;

const PREVIEW_ROWS = 5;
/**
 * A value list longer than this goes downstream as a relation even under θ rows: inline values
 * travel in prompts and in the SQL recorded in workflow history, which must stay small.
 */
export const INLINE_MAX_CHARS = 32_000;
const PREVIEW_CELL_CHARS = 120;

/**
 * Runs one sub-question's SQL read-only with its inputs resolved (value lists and named
 * relations), stores the rows by reference, and judges whether they can be built on: an error,
 * an empty result or a result of only NULLs is a failed node, which DecoSearch answers with a
 * topology refinement. A failure of the SQL is data, not an activity failure.
 */
export async function executeNode(deps: { databases: DatabaseRegistry; store: ArtifactStore }, input: ExecuteNodeInput): Promise<NodeRun> {
  const db = await deps.databases.openOrFail(input.database);
  const upstream = new Map<number, LoadedUpstream>();
  const rows = await loadNodeResults(
    deps.store,
    input.upstream.map((u) => u.ref),
  );
  input.upstream.forEach((ref, i) => upstream.set(ref.id, { ref, rows: rows[i] }));
  const relations = input.upstream.filter((u) => u.passedAs === 'relation');
  const compose = (resolvedSql: string) =>
    relations.length
      ? prependCtes(
          resolvedSql,
          relations.map(
            (u) =>
              `${relationName(u.id)}(${uniqueColumnNames(u.columns)
                .map((c) => quoteIdentifier(c, db.dialect))
                .join(', ')}) AS (${u.composedSql})`,
          ),
        )
      : resolvedSql;
  const failed = (resolvedSql: string, error: string): NodeRun => ({
    ok: false,
    failure: 'error',
    error,
    sql: input.sql,
    resolvedSql,
    composedSql: compose(resolvedSql),
    truncated: false,
    preview: [],
  });

  let resolvedSql: string;
  try {
    resolvedSql = resolveNodeSql(input.sql, upstream, db.dialect);
  } catch (err) {
    return failed(input.sql, (err as Error).message);
  }
  let stored: StoredNodeResult;
  try {
    const result = await db.execute(resolvedSql, {
      timeoutMs: input.timeoutMs,
      maxRows: input.maxRows,
      relations: relationsFor(upstream),
      maxCellBytes: input.maxCellBytes,
    });
    const bounded = boundRowBytes(result.rows, { maxCellBytes: input.maxCellBytes, maxResultBytes: NODE_MAX_RESULT_BYTES });
    stored = { columns: result.columns, rows: bounded.rows, truncated: result.truncated || !!bounded.truncation };
  } catch (err) {
    // A timeout, a refused statement or an SQL error: the step failed, the refiner hears why.
    return failed(resolvedSql, (err as Error).message);
  }
  await saveNodeResult(deps.store, input.resultKey, stored);

  const composedSql = compose(resolvedSql);
  const result: NodeResultRef = {
    id: input.node.id,
    question: input.node.question,
    ref: input.resultKey,
    passedAs: stored.rows.length <= input.inlineRows && inlineChars(stored) <= INLINE_MAX_CHARS ? 'inline' : 'relation',
    columns: stored.columns,
    rowCount: stored.rows.length,
    composedSql,
  };
  const verdict = judgeRows(stored.rows);
  return {
    ok: !verdict,
    ...(verdict ? { failure: verdict.failure, error: verdict.error } : {}),
    sql: input.sql,
    resolvedSql,
    composedSql,
    result,
    truncated: stored.truncated,
    preview: stored.rows
      .slice(0, PREVIEW_ROWS)
      .map((r) => r.map((v) => (typeof v === 'string' && v.length > PREVIEW_CELL_CHARS ? `${v.slice(0, PREVIEW_CELL_CHARS)}…` : v))),
  };
}

/** How long the value list of the first column would be in SQL. */
function inlineChars(stored: StoredNodeResult): number {
  return stored.rows.reduce((n, r) => n + JSON.stringify(r[0] ?? null).length + 2, 0);
}

/** Rows a downstream step cannot build on: none, or nothing but NULLs. */
function judgeRows(rows: SqlRow[]): { failure: 'empty' | 'all-null'; error: string } | null {
  if (!rows.length) return { failure: 'empty', error: 'the query returned no rows' };
  if (rows.every((r) => r.every((v) => v === null))) return { failure: 'all-null', error: `every value of the ${rows.length} rows is NULL` };
  return null;
}
