import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ActivityDeps } from '../activities';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { loadLlmConfig, type LlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
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

/** Real dependencies for a worker process: databases, the artifact store, the LLM service. */
export function buildActivityDeps(config: RuntimeConfig, env: Record<string, string | undefined>): ActivityDeps & { close(): Promise<void> } {
  mkdirSync(config.home, { recursive: true });
  const store = openSqliteArtifactStore(path.join(config.home, 'artifacts.sqlite'));
  const llm = createLlmService({ config: loadWorkerLlmConfig(config, env), store });
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  return {
    databases,
    llm,
    async close() {
      await databases.closeAll();
      store.close?.();
    },
  };
}
