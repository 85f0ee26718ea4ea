import { mkdirSync, readFileSync } from 'node:fs';
import type { ActivityDeps } from '../activities';
import { artifactStoreFromEnv } from '../activities/artifacts/artifact-store-from-env';
import { DatabaseRegistry } from '../activities/database/database-registry';
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

/**
 * Real dependencies for a worker process: databases, the artifact store (the SQLite file in
 * DECODEX_HOME, or MySQL named by DECODEX_ARTIFACTS_URL), the LLM service (and the LLM
 * configuration it was built from, which also sizes the `llm` worker).
 */
export async function buildActivityDeps(
  config: RuntimeConfig,
  env: Record<string, string | undefined>,
): Promise<ActivityDeps & { llmConfig: LlmConfig; close(): Promise<void> }> {
  mkdirSync(config.home, { recursive: true });
  const store = await artifactStoreFromEnv(config.home, env);
  const llmConfig = loadWorkerLlmConfig(config, env);
  const llm = createLlmService({ config: llmConfig, store });
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
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
      await store.close();
      await disposeLocalModels();
      await disposeMiniLmModels();
    },
  };
}
