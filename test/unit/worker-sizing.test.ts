import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../../activities/embeddings/index-embedders';
import { NativeConnection } from '@temporalio/worker';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { DEFAULT_QUEUE_CONCURRENCY, DEFAULT_SQL_POOL_SIZE, workerSizingFromEnv } from '../../workers/worker-sizing';
import { createWorkers } from '../../workers/create-workers';
import { installQuietRuntime } from '../../cli/commands/client-session';
import type { ActivityDeps } from '../../activities';

describe('worker sizing from the environment', () => {
  const remote = { DECODEX_LLM_BASE_URL: 'http://vllm:8000/v1', DECODEX_LLM_MODEL: 'big' };

  it('has explicit defaults, and each knob changes only its own figure', () => {
    const base = workerSizingFromEnv(remote, loadLlmConfig(remote));
    expect(base).toEqual({
      onlineConcurrency: DEFAULT_QUEUE_CONCURRENCY,
      offlineConcurrency: DEFAULT_QUEUE_CONCURRENCY,
      llmConcurrency: 8,
      sqlPool: DEFAULT_SQL_POOL_SIZE,
    });
    const env = { ...remote, DECODEX_ONLINE_CONCURRENCY: '12', DECODEX_OFFLINE_CONCURRENCY: '3', DECODEX_LLM_CONCURRENCY: '32', DECODEX_SQL_POOL_SIZE: '6' };
    expect(workerSizingFromEnv(env, loadLlmConfig(env))).toEqual({
      onlineConcurrency: 12,
      offlineConcurrency: 3,
      llmConcurrency: 32,
      sqlPool: { mysql: 6, sqlite: 6 },
    });
  });

  it('gives a preparation process one SQLite query process per core beyond its own, at most 3; DECODEX_SQL_POOL_SIZE still decides', () => {
    const preparation = { ...remote, DECODEX_NODE_ROLE: 'preparation' };
    const sqliteOn = (env: Record<string, string>, cores: number) => workerSizingFromEnv(env, loadLlmConfig(env), cores).sqlPool;
    expect(sqliteOn(preparation, 1)).toEqual({ mysql: DEFAULT_SQL_POOL_SIZE.mysql, sqlite: 1 });
    expect(sqliteOn(preparation, 2)).toEqual({ mysql: DEFAULT_SQL_POOL_SIZE.mysql, sqlite: 1 });
    expect(sqliteOn(preparation, 3)).toEqual({ mysql: DEFAULT_SQL_POOL_SIZE.mysql, sqlite: 2 });
    expect(sqliteOn(preparation, 16)).toEqual(DEFAULT_SQL_POOL_SIZE);
    expect(sqliteOn({ ...preparation, DECODEX_SQL_POOL_SIZE: '3' }, 2)).toEqual({ mysql: 3, sqlite: 3 });
    // Question workers keep the pool that lets a second process start beside a slow statement.
    expect(sqliteOn(remote, 2)).toEqual(DEFAULT_SQL_POOL_SIZE);
    expect(sqliteOn({ ...remote, DECODEX_NODE_ROLE: 'questions' }, 2)).toEqual(DEFAULT_SQL_POOL_SIZE);
  });

  it('rejects a knob that is not a positive integer, naming it', () => {
    for (const name of ['DECODEX_ONLINE_CONCURRENCY', 'DECODEX_OFFLINE_CONCURRENCY', 'DECODEX_SQL_POOL_SIZE']) {
      const env = { ...remote, [name]: '0' };
      expect(() => workerSizingFromEnv(env, loadLlmConfig(env))).toThrow(`${name} must be a positive integer, got "0"`);
    }
  });

  it('reaches the Temporal workers: activity slots of each queue follow the knobs', async () => {
    installQuietRuntime();
    const connection = await NativeConnection.connect({ address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS! });
    try {
      const workers = await createWorkers({
        connection,
        namespace: 'default',
        queues: ['online', 'offline', 'llm'],
        queuePrefix: `sizing${process.pid}.`,
        deps: { embedders: sameEmbedder(new HashedEmbedder()) } as ActivityDeps, // activities are only registered: nothing is sent to these queues
        workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! },
        onlineConcurrency: 7,
        offlineConcurrency: 2,
        llmConcurrency: 5,
      });
      const slots = workers.map((w) => JSON.stringify(w.options.tuner).match(/"activityTaskSlotSupplier":\{[^}]*"numSlots":(\d+)/)?.[1]);
      expect(slots).toEqual(['7', '2', '5']);
      const running = workers.map((w) => w.run());
      for (const w of workers) w.shutdown();
      await Promise.all(running);
    } finally {
      await connection.close();
    }
  });
});
