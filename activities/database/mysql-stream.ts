import type { Connection, FieldPacket } from 'mysql2';
import { cutCellWhileReading } from '../../core/result-bytes';
import { sqlValueBytes, type SqlRow } from '../../core/sql-value';
import { packetWatchdogOf } from './mysql-packet-watchdog';
import { castMysqlField } from './mysql-values';
import { QueryOutOfMemory, QueryTimeout, ReadOnlyViolation, type StatementRows } from './target-database';

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

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * Runs one statement on `connection`, reading rows as they arrive so a huge result never sits
 * in memory. It keeps `maxRows` rows; one more sets `truncated` and the rest are not wanted.
 * Rows kept past `maxBytes` in all stop it with QueryOutOfMemory: this runs inside the worker
 * process, whose memory must not follow whatever the SQL selects (200 rows of 16 MB held 3.3 GB).
 * One row larger than the connection's packet watchdog allows (mysql-packet-watchdog.ts) stops
 * it the same way, before the row is read. Cells are cut to about `maxCellBytes` (when given)
 * before they count against `maxBytes`. At `timeoutMs` it fails with QueryTimeout. Stopping a
 * statement means `killQuery()`, a KILL QUERY sent on another connection, so the server stops
 * working, not just this client reading.
 *
 * Whatever the server answers, the statement settles at once: a reply without a result set
 * (SELECT ... INTO, which the guard should have refused) fails with ReadOnlyViolation, a second
 * result set fails, and an error that mysql2 reports on the connection rather than the query (the
 * socket closing, a protocol error) fails the statement instead of leaving it to its timeout.
 * Any failure leaves the connection unfit for reuse; the caller destroys it.
 */
export function streamRows(
  connection: Connection,
  sql: string,
  limits: { timeoutMs: number; maxRows: number; maxBytes: number; maxCellBytes?: number },
  killQuery: () => Promise<void>,
): Promise<StreamedRows> {
  return new Promise((resolve, reject) => {
    let columns: string[] | null = null;
    const rows: SqlRow[] = [];
    let truncated = false;
    let bytes = 0;
    let stopping = false; // we sent KILL QUERY: the interruption that follows is ours, not an error
    let settled = false;
    let timer = setTimeout(() => stop(() => reject(new QueryTimeout(limits.timeoutMs))), limits.timeoutMs);
    const watchdog = packetWatchdogOf(connection);

    const settleOnce = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.removeListener('error', onConnectionError);
      if (watchdog) watchdog.onOversize = null;
      settle();
    };
    const stop = (settle: () => void) => {
      if (stopping || settled) return;
      stopping = true;
      clearTimeout(timer);
      connection.pause();
      void killQuery().finally(() => settleOnce(settle));
    };
    const outOfMemory = (what: string) => stop(() => reject(new QueryOutOfMemory(`out of memory: ${what}, the bound of a result in the worker`)));
    const done = () => settleOnce(() => resolve({ columns: columns ?? [], rows, truncated, killed: false }));
    /** Our handlers run inside mysql2's packet handling, where a throw would fail the connection, not the statement. */
    const guarded =
      <A extends unknown[]>(handler: (...args: A) => void) =>
      (...args: A) => {
        if (settled) return;
        try {
          handler(...args);
        } catch (err) {
          stop(() => reject(err));
        }
      };

    // A streamed query has no callback, so mysql2 reports a lost socket or a protocol error on the connection only.
    const onConnectionError = (err: Error) => {
      if (!stopping) settleOnce(() => reject(err));
    };
    connection.on('error', onConnectionError);
    if (watchdog) {
      if (watchdog.oversized !== null) return settleOnce(() => reject(new Error('the connection was stopped by its packet watchdog')));
      // The bytes announced so far are only a lower bound of the row's size: not worth a number.
      watchdog.onOversize = () => outOfMemory(`one row of the statement is over ${megabytes(watchdog.maxLogicalPacketBytes)} MB`);
    }

    const query = connection.query({ sql, rowsAsArray: true, typeCast: castMysqlField });
    query.on(
      'fields',
      guarded((fields: FieldPacket[] | undefined) => {
        if (fields === undefined) {
          // An OK packet instead of a result set: the statement stored its rows somewhere (variables, a file) instead of returning them.
          return settleOnce(() =>
            reject(
              new ReadOnlyViolation(
                'the server answered without a result set: the statement is no query (SELECT ... INTO writes variables or a file) ' +
                  'and may already have taken effect; its connection is closed',
              ),
            ),
          );
        }
        if (columns !== null) return stop(() => reject(new Error('the server sent a second result set; a query has one')));
        columns = fields.map((f) => f.name);
      }),
    );
    query.on(
      'result',
      guarded((read: SqlRow) => {
        if (truncated || stopping) return;
        if (rows.length < limits.maxRows) {
          const { maxCellBytes } = limits;
          const row = maxCellBytes === undefined ? read : read.map((v) => cutCellWhileReading(v, maxCellBytes));
          bytes += row.reduce<number>((n, v) => n + sqlValueBytes(v), 0);
          if (bytes <= limits.maxBytes) return void rows.push(row);
          return outOfMemory(`the statement's rows passed ${megabytes(limits.maxBytes)} MB`);
        }
        truncated = true;
        clearTimeout(timer);
        timer = setTimeout(() => stop(() => resolve({ columns: columns ?? [], rows, truncated, killed: true })), TRUNCATION_GRACE_MS);
      }),
    );
    query.on('error', (err: Error) => {
      if (stopping) return;
      // An error after truncation (say, a division by zero in a later row) does not change the answer.
      if (truncated) done();
      else settleOnce(() => reject(err));
    });
    query.on('end', () => {
      if (!stopping) done();
    });
  });
}
