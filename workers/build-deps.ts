import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ActivityDeps } from '../activities';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseConnections } from '../activities/database/database-connections';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { READ_ONLY_ACCOUNT_POLICIES, type ReadOnlyAccountPolicy } from '../activities/database/mysql-database';
import { openTargetDatabase } from '../activities/database/open-database';
import { indexEmbeddersFromEnv, vectorStoreFromEnv } from '../activities/indexing/index-backends';
import { loadLlmConfig, type LlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { disposeLocalModels } from '../activities/llm/local/model-runtime';
import { disposeMiniLmModels } from '../activities/embeddings/minilm-embedder';
import type { RuntimeConfig } from '../core/runtime-config';

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

/** DECODEX_MYSQL_ACCOUNT: `warn` (default) or `require` a SELECT-only MySQL account; anything else is an error. */
export function readOnlyAccountPolicy(env: Record<string, string | undefined>): ReadOnlyAccountPolicy {
  const value = env.DECODEX_MYSQL_ACCOUNT?.trim() || 'warn';
  if (!(READ_ONLY_ACCOUNT_POLICIES as readonly string[]).includes(value)) {
    throw new Error(`DECODEX_MYSQL_ACCOUNT must be one of ${READ_ONLY_ACCOUNT_POLICIES.join(', ')}, got "${value}"`);
  }
  return value as ReadOnlyAccountPolicy;
}

/** Credentials a command hands to its own in-process worker: reference → password (never sent anywhere). */
export type DatabasePasswords = ReadonlyMap<string, string>;

/**
 * Real dependencies for a worker process: databases, the artifact store, the LLM service (and
 * the LLM configuration it was built from, which also sizes the `llm` worker).
 */
export function buildActivityDeps(
  config: RuntimeConfig,
  env: Record<string, string | undefined>,
  passwords: DatabasePasswords = new Map(),
): ActivityDeps & { llmConfig: LlmConfig; close(): Promise<void> } {
  mkdirSync(config.home, { recursive: true });
  const store = openSqliteArtifactStore(path.join(config.home, 'artifacts.sqlite'));
  const llmConfig = loadWorkerLlmConfig(config, env);
  const llm = createLlmService({ config: llmConfig, store });
  const connections = loadDatabaseConnections(config, env);
  for (const [reference, password] of passwords) connections.addPassword(reference, password);
  const mysql = { readOnlyAccount: readOnlyAccountPolicy(env) };
  const databases = new DatabaseRegistry((reference) => openTargetDatabase(connections.resolve(reference), { mysql }));
  const vectors = vectorStoreFromEnv(config.home, env);
  return {
    databases,
    llm,
    artifacts: store,
    embedders: indexEmbeddersFromEnv(env),
    vectors,
    llmConfig,
    async close() {
      await databases.closeAll();
      await vectors.close();
      store.close?.();
      await disposeLocalModels();
      await disposeMiniLmModels();
    },
  };
}
