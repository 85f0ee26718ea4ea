import type { Connection, FieldPacket } from 'mysql2';
import { cutCellWhileReading } from '../../core/result-bytes';
import { sqlValueBytes, type SqlRow } from '../../core/sql-value';
import { castMysqlField } from './mysql-values';
import { QueryOutOfMemory, QueryTimeout, type StatementRows } from './target-database';

export interface StreamedRows extends StatementRows {
  /** The statement was stopped with KILL QUERY: the connection must not be reused. */
  killed: boolean;
}

/**
 * After the row that proves truncation, how long the statement may take to end by itself
 * (usual: the session's sql_select_limit stops the server right there) before it is killed
 * (a query with a larger LIMIT of its own). Ending by itself keeps the connection reusable.
 */
const TRUNCATION_GRACE_MS = 50;

/**
 * Runs one statement on `connection`, reading rows as they arrive so a huge result never sits
 * in memory. It keeps `maxRows` rows; one more sets `truncated` and the rest are not wanted.
 * Rows kept past `maxBytes` in all stop it with QueryOutOfMemory: this runs inside the worker
 * process, whose memory must not follow whatever the SQL selects (200 rows of 16 MB held 3.3 GB).
 * Cells are cut to about `maxCellBytes` (when given) before they count against `maxBytes`.
 * At `timeoutMs` it fails with QueryTimeout. Stopping a statement means `killQuery()`, a KILL
 * QUERY sent on another connection, so the server stops working, not just this client reading.
 */
export function streamRows(
  connection: Connection,
  sql: string,
  limits: { timeoutMs: number; maxRows: number; maxBytes: number; maxCellBytes?: number },
  killQuery: () => Promise<void>,
): Promise<StreamedRows> {
  return new Promise((resolve, reject) => {
    let columns: string[] = [];
    const rows: SqlRow[] = [];
    let truncated = false;
    let bytes = 0;
    let stopping = false; // we sent KILL QUERY: the interruption that follows is ours, not an error
    let settled = false;
    let timer = setTimeout(() => stop(() => reject(new QueryTimeout(limits.timeoutMs))), limits.timeoutMs);

    const settleOnce = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
    };
    const stop = (settle: () => void) => {
      if (stopping || settled) return;
      stopping = true;
      clearTimeout(timer);
      connection.pause();
      void killQuery().finally(() => settleOnce(settle));
    };

    const query = connection.query({ sql, rowsAsArray: true, typeCast: castMysqlField });
    query.on('fields', (fields: FieldPacket[]) => {
      columns = fields.map((f) => f.name);
    });
    query.on('result', (read: SqlRow) => {
      if (truncated || stopping) return;
      if (rows.length < limits.maxRows) {
        const { maxCellBytes } = limits;
        const row = maxCellBytes === undefined ? read : read.map((v) => cutCellWhileReading(v, maxCellBytes));
        bytes += row.reduce<number>((n, v) => n + sqlValueBytes(v), 0);
        if (bytes <= limits.maxBytes) return void rows.push(row);
        const mb = Math.round(limits.maxBytes / 2 ** 20);
        return stop(() => reject(new QueryOutOfMemory(`out of memory: the statement's rows passed ${mb} MB, the bound of a result in the worker`)));
      }
      truncated = true;
      clearTimeout(timer);
      timer = setTimeout(() => stop(() => resolve({ columns, rows, truncated, killed: true })), TRUNCATION_GRACE_MS);
    });
    query.on('error', (err: Error) => {
      if (stopping) return;
      // An error after truncation (say, a division by zero in a later row) does not change the answer.
      settleOnce(() => (truncated ? resolve({ columns, rows, truncated, killed: false }) : reject(err)));
    });
    query.on('end', () => {
      if (!stopping) settleOnce(() => resolve({ columns, rows, truncated, killed: false }));
    });
  });
}
