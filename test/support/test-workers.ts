import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService } from '../../activities/llm/llm-service';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../../activities/indexing/index-embedders';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../../cli/client';
import { ALL_TASK_QUEUES } from '../../core/task-queues';
import { createWorkers } from '../../workers/create-workers';

export interface TestStack {
  client: DecodexClient;
  address: string;
  queuePrefix: string;
  artifactsFile: string;
  stop(): Promise<void>;
}

/**
 * Real workers and a real client on the shared test Temporal server (started by global-setup),
 * with the LLM configured from `llmEnv` (usually pointing at the scripted server). Each stack
 * gets its own queue prefix, so test files running in parallel never take each other's tasks.
 */
let runtimeInstalled = false;

/** Workers log state changes at INFO; tests only want errors (fault-injection tests fail activities on purpose). */
function quietRuntime(): void {
  if (runtimeInstalled) return;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  runtimeInstalled = true;
}

/**
 * `artifactsFile` / `vectorsDir`: share one artifact store / vector store between stacks (a
 * restarted worker finds the first one's results).
 */
export async function startTestStack(llmEnv: Record<string, string>, options: { llmConcurrency?: number; artifactsFile?: string; vectorsDir?: string } = {}): Promise<TestStack> {
  quietRuntime();
  const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS;
  const codePath = process.env.DECODEX_TEST_WORKFLOW_BUNDLE;
  if (!address || !codePath) throw new Error('test Temporal server not started: run the tests through jest (global-setup)');
  const queuePrefix = `t${process.pid}-${Math.random().toString(36).slice(2, 8)}.`;
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-stack-'));
  const artifactsFile = options.artifactsFile ?? path.join(home, 'artifacts.sqlite');
  const store = openSqliteArtifactStore(artifactsFile);
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const llm = createLlmService({ config: loadLlmConfig(llmEnv), store });
  const vectors = new EmbeddedVectorStore(options.vectorsDir ?? path.join(home, 'vectors'));
  const connection = await NativeConnection.connect({ address });
  const workers: Worker[] = await createWorkers({
    connection,
    namespace: 'default',
    queues: ALL_TASK_QUEUES,
    queuePrefix,
    deps: { databases, llm, artifacts: store, embedders: sameEmbedder(new HashedEmbedder()), vectors },
    workflowBundle: { codePath },
    llmConcurrency: options.llmConcurrency,
  });
  const running = workers.map((w) => w.run());
  const client = await DecodexClient.connect({ address, queuePrefix });
  return {
    client,
    address,
    queuePrefix,
    artifactsFile,
    async stop() {
      await client.close();
      for (const w of workers) w.shutdown();
      await Promise.all(running);
      await databases.closeAll();
      await vectors.close();
      await connection.close();
      store.close?.();
    },
  };
}
