import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { sameEmbedder } from '../../activities/embeddings/index-embedders';
import { countDecompositionExamples, retrieveDecompositionExamples, storeDecompositionExamples } from '../../activities/knowledge/decomposition-examples';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService } from '../../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { DECOMPOSITION_KB_DEFAULTS, type BuildDecompositionKbInput } from '../../core/knowledge/decomposition-kb-types';
import { taskQueue } from '../../core/task-queues';
import { createWorkers } from '../../workers/create-workers';
import type { buildDecompositionKnowledge, BuildDecompositionKbResult } from '../../workflows/build-decomposition-knowledge';
import { traceQuery } from '../../workflows/queries';
import type { TraceEvent } from '../../core/run-trace';
import { DATASETS, spiderDatabasePath } from '../../devkit/datasets';
import { quietRuntime, UNUSED_LLM_ENV } from '../../devkit/test-workers';
import { STUB_ANSWERS } from './fixtures/stub-answer-workflow';

/**
 * The decomposition knowledge base: its retrieval (k nearest, [] without a knowledge base) and its
 * build job on the real Temporal dev server with the real offline activities (evaluation against
 * the gold SQL on a real Spider training database, the embedded vector store). Until DecoSearch's
 * complex route is on main, the `answerQuestion` children are a stub workflow
 * (fixtures/stub-answer-workflow.ts) that returns that route's result shape (`sql`, `dag.final`).
 */
const GOLD: Record<string, string> = {
  'What are the official names of cities with more residents than the average city?':
    'SELECT Official_Name FROM city WHERE Population > (SELECT avg(Population) FROM city)',
  'How many farms have more horses than the farm with the fewest cows?':
    'SELECT count(*) FROM farm WHERE Total_Horses > (SELECT Total_Horses FROM farm ORDER BY Cows ASC LIMIT 1)',
  'How many cities are there?': 'SELECT count(*) FROM city',
  'What is the theme of the competition hosted by the most populous city?':
    'SELECT T2.Theme FROM city AS T1 JOIN farm_competition AS T2 ON T1.City_ID = T2.Host_city_ID ORDER BY T1.Population DESC LIMIT 1',
};

describe('decomposition knowledge base', () => {
  const home = () => mkdtempSync(path.join(os.tmpdir(), 'decodex-dkb-'));

  it('retrieval: the k most similar past questions with their DAGs; [] when no knowledge base exists', async () => {
    const dir = home();
    const store = openSqliteArtifactStore(path.join(dir, 'a.sqlite'));
    const vectors = new EmbeddedVectorStore(path.join(dir, 'v'));
    expect(
      await retrieveDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, 'Which singers are older than the average singer?', 3),
    ).toEqual([]);
    const dag = (q: string) => ({ nodes: [{ id: 0, question: q }], edges: [] as [number, number][] });
    const examples = [
      'Which singers are older than the average age of singers?',
      'How many stadiums hosted concerts in 2014?',
      'List the names of pilots who flew more than 3 flights.',
      'What is the name of the oldest dog?',
    ].map((question) => ({ question, database: 'train_db', dag: dag(question) }));
    await storeDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, examples);
    expect(await countDecompositionExamples({ store, vectors })).toBe(4);
    const found = await retrieveDecompositionExamples(
      { store, vectors, embedder: new HashedEmbedder() },
      'Which singers are older than the average singer?',
      3,
    );
    expect(found).toHaveLength(3);
    expect(found[0]).toEqual(examples[0]);
    // The question being answered is never its own example (nor its copy under another database).
    await storeDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, [{ ...examples[1], database: 'other_db' }]);
    const own = await retrieveDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, examples[1].question, 3);
    expect(own).toHaveLength(3);
    expect(own.map((e) => e.question)).not.toContain(examples[1].question);
    await vectors.close();
    await store.close();
  });

  it("retrieval embeds with the workers' question embedder (MiniLM in production), and refuses a knowledge base of another embedder", async () => {
    const dir = home();
    const store = openSqliteArtifactStore(path.join(dir, 'a.sqlite'));
    const vectors = new EmbeddedVectorStore(path.join(dir, 'v'));
    const embedded: string[] = [];
    // Stands for MiniLM (whose model file a test machine may lack): what matters is that this one is used.
    const meaning = Object.assign(new HashedEmbedder({ dimension: 64 }), { name: 'meaning-stand-in' });
    const embed = meaning.embed.bind(meaning);
    meaning.embed = async (texts: string[]) => (embedded.push(...texts), embed(texts));
    const dag = { nodes: [{ id: 0, question: 'q' }], edges: [] as [number, number][] };
    await storeDecompositionExamples({ store, vectors, embedder: meaning }, [
      { question: 'How many dogs are older than the average dog?', database: 'd', dag },
    ]);
    expect(await retrieveDecompositionExamples({ store, vectors, embedder: meaning }, 'Which cats are heavier than average?', 3)).toHaveLength(1);
    expect(embedded).toEqual(['How many dogs are older than the average dog?', 'Which cats are heavier than average?']);
    await expect(retrieveDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, 'Which cats?', 3)).rejects.toThrow(
      /embedded with meaning-stand-in, this worker embeds questions with hashed/,
    );
    await vectors.close();
    await store.close();
  });

  /**
   * Runs the build job on a training file of `gold` (farm questions) with the real offline workers
   * and the stub `answerQuestion`, then hands `body` what it needs to look at the result.
   */
  async function withKnowledgeJob(
    gold: Record<string, string>,
    jobId: string,
    body: (job: {
      run: () => Promise<BuildDecompositionKbResult>;
      client: Client;
      retrieve: (question: string) => ReturnType<typeof retrieveDecompositionExamples>;
      children: () => Promise<string[]>;
      trace: () => Promise<TraceEvent[]>;
    }) => Promise<void>,
  ): Promise<void> {
    const dir = home();
    const dataset = path.join(dir, 'train.jsonl');
    writeFileSync(
      dataset,
      Object.entries(gold)
        .map(([question, sql]) => JSON.stringify({ question, sql, database: spiderDatabasePath('farm'), db_id: 'farm' }))
        .join('\n'),
    );
    quietRuntime();
    const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
    const queuePrefix = `dkb${process.pid}${jobId.length}.`;
    const store = openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
    const vectors = new EmbeddedVectorStore(path.join(dir, 'vectors'));
    const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
    const connection = await NativeConnection.connect({ address });
    const real = await createWorkers({
      connection,
      namespace: 'default',
      queues: ['offline'],
      queuePrefix,
      deps: {
        databases,
        llm: createLlmService({ config: loadLlmConfig(UNUSED_LLM_ENV), store }),
        artifacts: store,
        embedders: sameEmbedder(new HashedEmbedder()),
        vectors,
      },
      workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! },
    });
    const stub = await Worker.create({
      connection,
      taskQueue: taskQueue('online', queuePrefix),
      workflowsPath: require.resolve('./fixtures/stub-answer-workflow'),
    });
    const running = [...real, stub].map((w) => w.run());
    const clientConnection = await Connection.connect({ address });
    const client = new Client({ connection: clientConnection });
    const input: BuildDecompositionKbInput = {
      ...DECOMPOSITION_KB_DEFAULTS,
      jobId,
      dataset,
      datasetsRoot: DATASETS,
      sample: { size: Object.keys(gold).length, seed: 1 },
    };
    try {
      await body({
        run: () =>
          client.workflow.execute<typeof buildDecompositionKnowledge>('buildDecompositionKnowledge', {
            taskQueue: taskQueue('offline', queuePrefix),
            workflowId: jobId,
            args: [input],
          }),
        client,
        retrieve: (question) => retrieveDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, question, 3),
        children: async () => {
          const ids = [];
          for await (const w of client.workflow.list({ query: `WorkflowType = 'answerQuestion' AND WorkflowId STARTS_WITH '${jobId}/'` }))
            ids.push(w.workflowId);
          return ids.sort();
        },
        trace: () => client.workflow.getHandle(jobId).query(traceQuery),
      });
    } finally {
      await clientConnection.close();
      for (const w of [...real, stub]) w.shutdown();
      await Promise.all(running);
      await databases.closeAll();
      await vectors.close();
      await store.close();
      await connection.close();
    }
  }

  it('the build job stores the DAGs of correct complex-route answers only (not one that is SQL), and a rerun asks nothing again', async () => {
    const jobId = `dkb-${process.pid}`;
    await withKnowledgeJob(GOLD, jobId, async ({ run, retrieve, children }) => {
      const result = await run();
      expect(result.status).toBe('completed');
      expect(result.progress).toMatchObject({ total: 4, done: 4, stored: 1, wrong: 1, withoutDag: 1, unusable: 1, failedQuestions: 0, llmCalls: 8 });
      expect(await retrieve('Which cities have more residents than the average?')).toEqual([
        {
          question: 'What are the official names of cities with more residents than the average city?',
          database: 'farm',
          dag: STUB_ANSWERS['What are the official names of cities with more residents than the average city?'].dag,
        },
      ]);
      // Every question has its record: a rerun of the job hands none out (and its spending counts the first run's).
      const again = await run();
      expect(again.progress).toMatchObject({ done: 4, stored: 1, unusable: 1, llmCalls: 8 });
      expect(await children()).toEqual([`${jobId}/q0`, `${jobId}/q1`, `${jobId}/q2`, `${jobId}/q3`]);
    });
  }, 120_000);

  it('a question whose time budget ran out (a paused worker) is answered once more, not stored as unanswered', async () => {
    const question = 'Which farm competitions took place in the year with the most horses?';
    const jobId = `dkb-time-${process.pid}`;
    await withKnowledgeJob({ [question]: STUB_ANSWERS[question].sql }, jobId, async ({ run, retrieve, children, trace }) => {
      const result = await run();
      expect(result.status).toBe('completed');
      // Both runs' spending counts: 2 calls each.
      expect(result.progress).toMatchObject({ total: 1, done: 1, stored: 1, wrong: 0, withoutDag: 0, failedQuestions: 0, llmCalls: 4 });
      expect(await retrieve('Which competitions were held in the year with the most horses?')).toEqual([
        { question, database: 'farm', dag: STUB_ANSWERS[question].dag },
      ]);
      expect(await children()).toEqual([`${jobId}/q0`, `${jobId}/q0/again`]);
      expect(await trace()).toContainEqual(expect.objectContaining({ step: 'answerQuestion', summary: 'question 0 ran out of time: answered once more' }));
    });
  }, 120_000);
});
