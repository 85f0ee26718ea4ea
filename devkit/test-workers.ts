import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { artifactStoreFromEnv } from '../activities/artifacts/artifact-store-from-env';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { vectorStoreFromEnv } from '../activities/indexing/index-backends';
import { sameEmbedder } from '../activities/embeddings/index-embedders';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { ALL_TASK_QUEUES, type TaskQueueName } from '../core/task-queues';
import { createWorkers } from '../workers/create-workers';

export interface TestStack {
  client: DecodexClient;
  address: string;
  queuePrefix: string;
  artifactsFile: string;
  /** The embedded vector store's directory (absent with Qdrant): tests open it to write knowledge. */
  vectorsDir?: string;
  stop(): Promise<void>;
}

/**
 * Real workers and a real client on the shared test Temporal server (started by global-setup),
 * with the LLM configured from `llmEnv` (usually pointing at the scripted server). Each stack
 * gets its own queue prefix, so test files running in parallel never take each other's tasks.
 */
let runtimeInstalled = false;

/** Workers log state changes at INFO; tests only want errors (fault-injection tests fail activities on purpose). */
export function quietRuntime(): void {
  if (runtimeInstalled) return;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  runtimeInstalled = true;
}

/** For stacks whose runs ask no model (exploration.useLlm off): an endpoint that is never called. */
export const UNUSED_LLM_ENV = { DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DECODEX_LLM_MODEL: 'unused', DECODEX_LLM_API_KEY: 'unused' };

export interface TestStackOptions {
  llmConcurrency?: number;
  /** Share one artifact store between stacks (a restarted worker finds the first one's results). */
  artifactsFile?: string;
  /** Artifacts in this MySQL database (DECODEX_ARTIFACTS_URL, through the same factory a worker uses) instead of a SQLite file. */
  artifactsUrl?: string;
  /** Share one embedded vector store between stacks. */
  vectorsDir?: string;
  /**
   * Vectors in this Qdrant instead (QDRANT_URL and DECODEX_QDRANT_PREFIX, through the same
   * factory a worker uses).
   */
  qdrant?: { url: string; prefix: string };
}

export interface WorkerSetOptions extends TestStackOptions {
  address: string;
  queuePrefix: string;
  /** The queues this set serves (default all). */
  queues?: TaskQueueName[];
  /** The prebuilt workflow bundle (global-setup builds one per test run). */
  codePath: string;
}

export interface WorkerSet {
  artifactsFile: string;
  /** The embedded vector store's folder (undefined with Qdrant). */
  vectorsDir: string | undefined;
  stop(): Promise<void>;
}

/** Real workers for some queues, wired like `decodex worker` (also run in a process of its own by worker-process.ts). */
export async function startWorkerSet(llmEnv: Record<string, string>, options: WorkerSetOptions): Promise<WorkerSet> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-stack-'));
  const artifactsFile = options.artifactsFile ?? path.join(home, 'artifacts.sqlite');
  const store = options.artifactsUrl
    ? await artifactStoreFromEnv(home, { DECODEX_ARTIFACTS_URL: options.artifactsUrl })
    : openSqliteArtifactStore(artifactsFile);
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const llm = createLlmService({ config: loadLlmConfig(llmEnv), store });
  const vectorsDir = options.qdrant ? undefined : (options.vectorsDir ?? path.join(home, 'vectors'));
  const vectors = options.qdrant
    ? vectorStoreFromEnv(home, { QDRANT_URL: options.qdrant.url, DECODEX_QDRANT_PREFIX: options.qdrant.prefix })
    : new EmbeddedVectorStore(vectorsDir!);
  const connection = await NativeConnection.connect({ address: options.address });
  const workers: Worker[] = await createWorkers({
    connection,
    namespace: 'default',
    queues: options.queues ?? ALL_TASK_QUEUES,
    queuePrefix: options.queuePrefix,
    deps: { databases, llm, artifacts: store, embedders: sameEmbedder(new HashedEmbedder()), vectors },
    workflowBundle: { codePath: options.codePath },
    llmConcurrency: options.llmConcurrency,
  });
  const running = workers.map((w) => w.run());
  return {
    artifactsFile,
    vectorsDir,
    async stop() {
      for (const w of workers) w.shutdown();
      await Promise.all(running);
      await databases.closeAll();
      await vectors.close();
      await connection.close();
      await store.close();
    },
  };
}

export async function startTestStack(
  llmEnv: Record<string, string>,
  options: TestStackOptions & { queues?: TaskQueueName[]; queuePrefix?: string } = {},
): Promise<TestStack> {
  quietRuntime();
  const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS;
  const codePath = process.env.DECODEX_TEST_WORKFLOW_BUNDLE;
  if (!address || !codePath) throw new Error('test Temporal server not started: run the tests through jest (global-setup)');
  const queuePrefix = options.queuePrefix ?? `t${process.pid}-${Math.random().toString(36).slice(2, 8)}.`;
  const workers = await startWorkerSet(llmEnv, { ...options, address, queuePrefix, codePath });
  const client = await DecodexClient.connect({ address, queuePrefix });
  return {
    client,
    address,
    queuePrefix,
    artifactsFile: workers.artifactsFile,
    vectorsDir: workers.vectorsDir,
    async stop() {
      await client.close();
      await workers.stop();
    },
  };
}
