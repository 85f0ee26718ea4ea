import os from 'node:os';
import { DEFAULT_SQLITE_POOL_SIZE } from '../activities/database/sqlite-process-pool';
import { parsePositiveInteger } from '../core/config-values';
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
export function workerSizingFromEnv(env: Env, llmConfig: LlmConfig, cores = os.availableParallelism()): WorkerSizing {
  const positive = (name: string) => (env[name] ? parsePositiveInteger(env[name], name) : undefined);
  const sqlPool = positive('DECODEX_SQL_POOL_SIZE');
  return {
    onlineConcurrency: positive('DECODEX_ONLINE_CONCURRENCY') ?? DEFAULT_QUEUE_CONCURRENCY,
    offlineConcurrency: positive('DECODEX_OFFLINE_CONCURRENCY') ?? DEFAULT_QUEUE_CONCURRENCY,
    llmConcurrency: llmWorkerConcurrency(llmConfig, env),
    sqlPool: sqlPool
      ? { mysql: sqlPool, sqlite: sqlPool }
      : env.DECODEX_NODE_ROLE === 'preparation'
        ? { ...DEFAULT_SQL_POOL_SIZE, sqlite: preparationSqlitePoolSize(cores) }
        : DEFAULT_SQL_POOL_SIZE,
  };
}

/**
 * SQLite query processes of a preparation process (DECODEX_NODE_ROLE=preparation, which
 * bin/decodex sets for `prepare`, `mine-rules`, `build-knowledge` and an offline-only worker):
 * one per core beyond the one the process itself needs, at most the usual 3. Its statements are
 * decodex's own profiling and statistics queries, each bounded by the preparation's query
 * timeout, so a second process only buys parallelism, and on 2 cores there is none to buy: the
 * worker, the Temporal server and one query process already fill them (bench:prepare: one
 * process instead of two, 68 MB less, the same time within noise). Question workers keep 3:
 * there a second process is what keeps one slow generated statement from holding up the rest.
 */
export function preparationSqlitePoolSize(cores: number): number {
  return Math.max(1, Math.min(DEFAULT_SQLITE_POOL_SIZE, cores - 1));
}
