import type { QuestionLlmActivities, QuestionOnlineActivities } from '../../activities/question-activities';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Diagnosis } from '../../core/question/diagnosis';
import type { NodeRun } from '../../core/dag/node-results';
import { DecodexClient } from '../../cli/client';
import { taskQueue } from '../../core/task-queues';
import type { LlmCallUsage } from '../../core/usage';

/**
 * Workers whose activities are stubs (as in temporalio/samples-typescript's mocked-activity
 * tests): the real `answerQuestion` workflow code runs on the real dev server, and each stage's
 * orchestration is checked against activities that answer exactly what a test says. Every call
 * is recorded with its input.
 */
/** The activities the question workflow calls, by task queue (the same types its proxies use). */
export type OnlineStubs = QuestionOnlineActivities;
export type LlmStubs = QuestionLlmActivities;

export const usage = (role: string): LlmCallUsage => ({ role, model: 'stub', promptTokens: 10, completionTokens: 2, latencyMs: 1, cacheHit: false });

export function okDiagnosis(resultKey: string, rowCount = 1): Diagnosis {
  return { findings: [], execution: { ok: true, rowCount, truncated: false, columns: ['c'], resultKey, preview: [[resultKey]] } };
}

/** A node run whose SQL ran and returned one row (override `failure` for a failed one). */
export function nodeRun(id: number, sql: string, failure?: NodeRun['failure']): NodeRun {
  const ran = failure !== 'error';
  return {
    ok: !failure,
    ...(failure ? { failure, error: failure === 'error' ? `stubbed error of node ${id}` : `stubbed ${failure} result of node ${id}` } : {}),
    sql,
    resolvedSql: sql,
    composedSql: sql,
    ...(ran
      ? { result: { id, question: `node ${id}`, ref: `n${id}`, passedAs: 'inline' as const, columns: ['c'], rowCount: failure ? 0 : 1, composedSql: sql } }
      : {}),
    truncated: false,
    preview: failure ? [] : [[id]],
  };
}

/** The two-node plan the stub decomposer answers: the root 0 uses the leaf 1. */
export const STUB_DAG = {
  nodes: [
    { id: 0, question: 'the answer from @[1]' },
    { id: 1, question: 'the leaf' },
  ],
  edges: [[0, 1]] as [number, number][],
};

/** A prepared database, three generation paths that agree, nothing to correct: each test overrides what it examines. */
export function defaultStubs(): { online: OnlineStubs; llm: LlmStubs } {
  const versions = { profile: 'p', index: 'i', exploration: 'e' };
  return {
    online: {
      describeDatabase: async () => ({ name: 'stub', dialect: 'sqlite', tableCount: 1, columnCount: 2, schemaDdl: '' }),
      executeSql: async (input) => ({ ok: true, result: { columns: ['c'], rows: [[input.sql]], truncated: false, elapsedMs: 1 } }),
      openQuestion: async () => ({
        label: 'stub',
        dialect: 'sqlite',
        tables: 2,
        columns: 5,
        prepared: { databaseId: 'stub', versions, collections: { profiles: 'p', values: 'v' }, preparedAt: '2026-01-01', complete: true, notes: 0 },
        knowledge: { fewShotExamples: 0, correctionRules: 0 },
      }),
      retrieveSchemaElements: async () => ({ focus: [{ table: 't', columns: ['a'] }], grounding: [], counts: { profile: 1, value: 0, join: 0 } }),
      diagnoseSql: async (input) => okDiagnosis(`rows of ${input.sql}`),
      executeNode: async (input) => nodeRun(input.node.id, input.sql),
      forgetNodeResults: async () => 0,
    },
    llm: {
      draftPreliminarySql: async (input) => ({
        view: input.view,
        sql: `SELECT b FROM t -- ${input.view}`,
        columns: [{ table: 't', columns: ['b'] }],
        parsed: true,
        usage: usage('linker'),
      }),
      extractKeywords: async () => ({ keywords: ['k'], usage: usage('selector') }),
      selectTables: async () => ({ tables: ['t'], returned: ['t'], usage: usage('selector') }),
      selectColumns: async () => ({ focus: [{ table: 't', columns: ['a'] }], returned: ['t.a'], completed: [], usage: usage('selector') }),
      selectRelevantNotes: async (ctx) => ({ candidates: 0, notes: [], selectedIds: [], focus: ctx.focus, added: [], usage: [] }),
      judgeComplexity: async () => ({ needsDecomposition: false, reasoning: 'stub', usage: usage('judger') }),
      decomposeQuestion: async () => ({ proposed: STUB_DAG, examples: 0, seeded: false, usage: usage('decomposer') }),
      generateNodeSql: async (input) => ({
        sql: `SELECT ${input.node.id} -- node`,
        resolvedQuestion: input.node.question,
        reasoning: '',
        usage: usage('generator'),
      }),
      refineTopology: async (input) => ({ proposed: input.dag, usage: usage('topology_refiner') }),
      generateSqlDirect: async () => ({ sql: 'SELECT 1', reasoning: '', usage: usage('generator') }),
      generateSqlDependencyTree: async () => ({ sql: 'SELECT 1', reasoning: '', usage: usage('generator') }),
      generateSqlFewShot: async () => ({ sql: 'SELECT 1', reasoning: '', usage: usage('generator') }),
      generateSqlDivideAndConquer: async () => ({ sql: 'SELECT 1', reasoning: '', usage: usage('generator') }),
      reviseSql: async () => ({ sql: 'SELECT 2', reasoning: '', usage: usage('reviser') }),
      correctWithRules: async (input) => ({ sql: input.sql, appliedRules: [], usage: [usage('rule_corrector')] }),
      compareCandidates: async () => ({ winner: 'A', reasoning: '', usage: usage('selection_judge') }),
    },
  };
}

export interface StubbedStack {
  client: DecodexClient;
  calls: { name: string; input: unknown }[];
  stop(): Promise<void>;
}

function recorded<T extends Record<string, (...args: never[]) => Promise<unknown>>>(stubs: T, calls: StubbedStack['calls']): T {
  return Object.fromEntries(
    Object.entries(stubs).map(([name, fn]) => [
      name,
      async (input: never) => {
        calls.push({ name, input });
        return fn(input);
      },
    ]),
  ) as T;
}

export async function startStubbedQuestionWorkers(stubs: { online: OnlineStubs; llm: LlmStubs }): Promise<StubbedStack> {
  const address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!;
  const codePath = process.env.DECODEX_TEST_WORKFLOW_BUNDLE!;
  const queuePrefix = `stub${process.pid}-${Math.random().toString(36).slice(2, 8)}.`;
  const calls: StubbedStack['calls'] = [];
  const connection = await NativeConnection.connect({ address });
  const workers = await Promise.all([
    Worker.create({ connection, taskQueue: taskQueue('online', queuePrefix), workflowBundle: { codePath }, activities: recorded(stubs.online, calls) }),
    Worker.create({ connection, taskQueue: taskQueue('llm', queuePrefix), activities: recorded(stubs.llm, calls) }),
  ]);
  const running = workers.map((w) => w.run());
  // The activities are stubs: the database named in a question is never opened, so it need not exist.
  const client = await DecodexClient.connect({ address, queuePrefix, checkDatabaseFiles: false });
  return {
    client,
    calls,
    async stop() {
      await client.close();
      for (const w of workers) w.shutdown();
      await Promise.all(running);
      await connection.close();
    },
  };
}

/** Runs `run` against stubbed workers whose default stubs `edit` changed, and stops them after. */
export async function withStubs(edit: (stubs: ReturnType<typeof defaultStubs>) => void, run: (stack: StubbedStack) => Promise<void>): Promise<void> {
  const stubs = defaultStubs();
  edit(stubs);
  const stack = await startStubbedQuestionWorkers(stubs);
  try {
    await run(stack);
  } finally {
    await stack.stop();
  }
}

/** The inputs of every call of one stubbed activity, in order. */
export const inputsOf = (stack: StubbedStack, name: string) => stack.calls.filter((c) => c.name === name).map((c) => c.input);
