import type { QueryResult } from '../database/query-result';
import type { ByteTruncation } from '../result-bytes';

/** The result as it enters workflow history: bounded in bytes; `byteLimit` says what the bound cut. */
export type BoundedQueryResult = QueryResult & { byteLimit?: ByteTruncation };

/** A failed execution is an answer about the SQL, not a failure of the activity: it is data. */
export type ExecuteSqlOutput =
  { ok: true; result: BoundedQueryResult } | { ok: false; error: { kind: 'timeout' | 'read_only_violation' | 'sql_error'; message: string } };
