import { mkdirSync, readFileSync } from 'node:fs';
import type { ActivityDeps } from '../activities';
import { artifactStoreFromEnv } from '../activities/artifacts/artifact-store-from-env';
import { DatabaseConnections } from '../activities/database/database-connections';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { READ_ONLY_ACCOUNT_POLICIES, type ReadOnlyAccountPolicy } from '../activities/database/mysql-account-policy';
import { openTargetDatabase } from '../activities/database/open-database';
import { indexEmbeddersFromEnv, vectorStoreFromEnv } from '../activities/indexing/index-backends';
import { loadLlmConfig, type LlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { disposeLocalModels } from '../activities/llm/local/model-runtime';
import { disposeMiniLmModels } from '../activities/embeddings/minilm-embedder';
import type { RuntimeConfig } from '../core/runtime-config';
import { sharedSqliteProcessPool } from '../activities/database/sqlite-process-pool';
import { workerSizingFromEnv, type WorkerSizing } from './worker-sizing';

/** The optional JSON config file (DECODEX_CONFIG), parsed once, with a clear error if broken. */
export function readConfigFile(config: RuntimeConfig): unknown {
  if (!config.configFile) return undefined;
  try {
    return JSON.parse(readFileSync(config.configFile, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read DECODEX_CONFIG=${config.configFile}: ${(err as Error).message}`);
  }
}

/** The LLM configuration from env vars and the `llm` section of the config file. */
export function loadWorkerLlmConfig(config: RuntimeConfig, env: Record<string, string | undefined>): LlmConfig {
  const file = readConfigFile(config) as { llm?: unknown } | undefined;
  return loadLlmConfig(env, file?.llm);
}

/** The worker's named connections and credentials: `DECODEX_DATABASE_*` and the config file's `databases` section. */
export function loadDatabaseConnections(config: RuntimeConfig, env: Record<string, string | undefined>): DatabaseConnections {
  const file = readConfigFile(config) as { databases?: unknown } | undefined;
  return DatabaseConnections.fromConfig(env, file?.databases);
}

/**
 * DECODEX_MYSQL_ACCOUNT (or DECODEX_POSTGRES_ACCOUNT for PostgreSQL): `warn` (default) or
 * `require` an account that can only read; anything else is an error.
 */
export function readOnlyAccountPolicy(
  env: Record<string, string | undefined>,
  variable: 'DECODEX_MYSQL_ACCOUNT' | 'DECODEX_POSTGRES_ACCOUNT' = 'DECODEX_MYSQL_ACCOUNT',
): ReadOnlyAccountPolicy {
  const value = env[variable]?.trim() || 'warn';
  if (!(READ_ONLY_ACCOUNT_POLICIES as readonly string[]).includes(value)) {
    throw new Error(`${variable} must be one of ${READ_ONLY_ACCOUNT_POLICIES.join(', ')}, got "${value}"`);
  }
  return value as ReadOnlyAccountPolicy;
}

/** DECODEX_MYSQL_TEMP_DISK_MB: the temp disk one MySQL/MariaDB statement may write, where the server lets a session bound it (default 256). */
export function mysqlTempDiskBytes(env: Record<string, string | undefined>): number | undefined {
  const value = env.DECODEX_MYSQL_TEMP_DISK_MB?.trim();
  if (!value) return undefined;
  const mb = Number(value);
  if (!Number.isInteger(mb) || mb < 1) throw new Error(`DECODEX_MYSQL_TEMP_DISK_MB must be a whole number of megabytes (at least 1), got "${value}"`);
  return mb * 2 ** 20;
}

/** Credentials a command hands to its own in-process worker: reference → password (never sent anywhere). */
export type DatabasePasswords = ReadonlyMap<string, string>;

/**
 * Real dependencies for a worker process: databases, the artifact store (the SQLite file in
 * DECODEX_HOME, or MySQL named by DECODEX_ARTIFACTS_URL), the LLM service (and the LLM
 * configuration it was built from, which also sizes the `llm` worker).
 */
export async function buildActivityDeps(
  config: RuntimeConfig,
  env: Record<string, string | undefined>,
  passwords: DatabasePasswords = new Map(),
): Promise<ActivityDeps & { llmConfig: LlmConfig; sizing: WorkerSizing; close(): Promise<void> }> {
  mkdirSync(config.home, { recursive: true });
  const store = await artifactStoreFromEnv(config.home, env);
  const llmConfig = loadWorkerLlmConfig(config, env);
  const llm = createLlmService({ config: llmConfig, store });
  const connections = loadDatabaseConnections(config, env);
  for (const [reference, password] of passwords) connections.addPassword(reference, password);
  const sizing = workerSizingFromEnv(env, llmConfig);
  // The worker's own SQLite query processes, sized by DECODEX_SQL_POOL_SIZE (see worker-sizing.ts).
  const sqlitePool = sharedSqliteProcessPool(env, sizing.sqlPool.sqlite);
  const mysql = { readOnlyAccount: readOnlyAccountPolicy(env), connectionLimit: sizing.sqlPool.mysql, maxTempDiskBytes: mysqlTempDiskBytes(env) };
  // PostgreSQL connections are sized like MySQL's: both hold one server connection per running statement.
  const postgres = { readOnlyAccount: readOnlyAccountPolicy(env, 'DECODEX_POSTGRES_ACCOUNT'), connectionLimit: sizing.sqlPool.mysql };
  const databases = new DatabaseRegistry((reference) => openTargetDatabase(connections.resolve(reference), { sqlite: { pool: sqlitePool }, mysql, postgres }));
  const vectors = vectorStoreFromEnv(config.home, env);
  return {
    databases,
    llm,
    artifacts: store,
    embedders: indexEmbeddersFromEnv(env),
    vectors,
    llmConfig,
    sizing,
    async close() {
      await databases.closeAll();
      await sqlitePool.close();
      await vectors.close();
      await store.close();
      await disposeLocalModels();
      await disposeMiniLmModels();
    },
  };
}
