import { DEFAULT_SQLITE_POOL_SIZE } from '../activities/database/sqlite-process-pool';
import { parsePositiveInteger } from '../activities/llm/config-values';
import type { LlmConfig } from '../activities/llm/llm-config';
import { llmWorkerConcurrency } from './llm-concurrency';

type Env = Record<string, string | undefined>;

/** The Temporal SDK's own default of activities at once per worker, kept for the online and offline queues. */
export const DEFAULT_QUEUE_CONCURRENCY = 100;
/** SQL statements at once per target database (MySQL connections) and SQLite query processes of the worker. */
export const DEFAULT_SQL_POOL_SIZE = { mysql: 4, sqlite: DEFAULT_SQLITE_POOL_SIZE };

/** How much one worker process takes on, per task queue and per database. */
export interface WorkerSizing {
  /** Activities at once on the `online` queue (question steps: retrieval, SQL runs, diagnostics). */
  onlineConcurrency: number;
  /** Activities at once on the `offline` queue (profiling, indexing, statistics, benchmark scoring). */
  offlineConcurrency: number;
  /** Model calls at once on the `llm` queue (see llm-concurrency.ts). */
  llmConcurrency: number;
  /** MySQL connections per target database, and SQLite query processes of the whole worker. */
  sqlPool: { mysql: number; sqlite: number };
}

/**
 * The sizing knobs of one worker process, from its environment: DECODEX_ONLINE_CONCURRENCY,
 * DECODEX_OFFLINE_CONCURRENCY, DECODEX_LLM_CONCURRENCY and DECODEX_SQL_POOL_SIZE (one number
 * for both engines: each SQLite process holds 60-100 MB, so its default stays lower). Several
 * processes scale out; these say how much each one takes.
 */
export function workerSizingFromEnv(env: Env, llmConfig: LlmConfig): WorkerSizing {
  const positive = (name: string) => (env[name] ? parsePositiveInteger(env[name], name) : undefined);
  const sqlPool = positive('DECODEX_SQL_POOL_SIZE');
  return {
    onlineConcurrency: positive('DECODEX_ONLINE_CONCURRENCY') ?? DEFAULT_QUEUE_CONCURRENCY,
    offlineConcurrency: positive('DECODEX_OFFLINE_CONCURRENCY') ?? DEFAULT_QUEUE_CONCURRENCY,
    llmConcurrency: llmWorkerConcurrency(llmConfig, env),
    sqlPool: sqlPool ? { mysql: sqlPool, sqlite: sqlPool } : DEFAULT_SQL_POOL_SIZE,
  };
}
