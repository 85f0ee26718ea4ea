import type { PoolClient, QueryConfig } from 'pg';
import { sqlValueBytes, type SqlRow } from '../../core/sql-value';
import { statementTimeout } from './postgres-session';
import { QueryOutOfMemory, type StatementRows } from './target-database';

/** The cursor's name; one per transaction, which ends with the statement. */
const CURSOR = 'decodex_rows';
/** Rows in the first FETCH; later ones are sized from the bytes rows took so far. */
const FIRST_BATCH = 100;
const MAX_BATCH = 5000;

export interface CursorLimits {
  maxRows: number;
  maxBytes: number;
  /** performance.now() after which the statement must have ended. */
  deadline: number;
}

/**
 * Runs a query through a server-side cursor in the current (read-only) transaction and reads it
 * in batches, so the server computes only the rows that are read: at `maxRows` + 1 rows the
 * result is truncated and the rest is never produced, and a batch is sized so the rows held
 * stay under `maxBytes` (one row's values are bounded only by PostgreSQL's 1 GB per value).
 * DECLARE ... CURSOR FOR accepts only SELECT and VALUES, a check by PostgreSQL's own parser
 * behind the statement guard. Each FETCH gets the time that is left as its statement_timeout.
 *
 * The DECLARE, which carries the statement's text, goes through the extended protocol (Parse,
 * Bind, Execute), always, not only when there are parameters: a Parse message holds exactly one
 * statement, and the server refuses a second ("cannot insert multiple commands into a prepared
 * statement"). Sent as a simple query, `...; COMMIT; BEGIN READ WRITE; DELETE ...` ran every
 * statement, so one gap in the guards was a write.
 */
export async function readThroughCursor(client: PoolClient, sql: string, params: string[], limits: CursorLimits): Promise<StatementRows> {
  await client.query(oneStatement(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params));
  const rows: SqlRow[] = [];
  let columns: string[] = [];
  let bytes = 0;
  let batch = Math.min(FIRST_BATCH, limits.maxRows + 1);
  for (let first = true; ; first = false) {
    if (!first) await client.query(`SET LOCAL statement_timeout = ${statementTimeout(limits.deadline - performance.now())}`);
    const result = await client.query<SqlRow>({ text: `FETCH FORWARD ${batch} FROM ${CURSOR}`, rowMode: 'array' });
    columns = result.fields.map((f) => f.name);
    for (const row of result.rows) {
      if (rows.length === limits.maxRows) return { columns, rows, truncated: true };
      bytes += row.reduce<number>((n, v) => n + sqlValueBytes(v), 0);
      if (bytes > limits.maxBytes) {
        const mb = Math.round(limits.maxBytes / 2 ** 20);
        throw new QueryOutOfMemory(`out of memory: the statement's rows passed ${mb} MB, the bound of a result in the worker`);
      }
      rows.push(row);
    }
    if (result.rows.length < batch) return { columns, rows, truncated: false };
    const perRow = Math.max(1, bytes / rows.length);
    batch = Math.max(1, Math.min(MAX_BATCH, limits.maxRows + 1 - rows.length, Math.floor((limits.maxBytes - bytes) / perRow / 4)));
  }
}

/** node-postgres 8.23 reads `queryMode` (lib/query.js) though its types do not declare it. */
function oneStatement(text: string, values: string[]): QueryConfig {
  const config: QueryConfig & { queryMode: 'extended' } = { text, values, queryMode: 'extended' };
  return config;
}
