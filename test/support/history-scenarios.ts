import type { temporal } from '@temporalio/proto';
import { DecodexClient } from '../../cli/client';
import type { AnswerQuestionInput, AnswerQuestionResult } from '../../core/answer-question-types';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { scriptedDag } from '../../devkit/scripted-dag';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startPreparedScriptedStack } from './prepared-scripted-stack';

/**
 * The question runs whose histories test/workflows/replay-histories.test.ts replays: one per route
 * of `answerQuestion` (each preset, notes, correction with a rejected revision, a tournament, the
 * complex route with a topology refinement, the fall-through to decomposition, a budget that ends
 * the run with the preliminary SQLs, a first question that prepares its database in a child
 * workflow, a database that cannot be opened). Real workers, the scripted LLM, real SQLite.
 */
const CONCERTS = spiderDatabasePath('concert_singer');
const PETS = spiderDatabasePath('pets_1');
const concerts = spiderDev().filter((q) => q.db_id === 'concert_singer');
const pets = spiderDev().filter((q) => q.db_id === 'pets_1');

const OLDER = 'How many singers are older than the average singer age?';
const OLDER_SQL = 'SELECT count(*) FROM singer WHERE Age > (SELECT avg(Age) FROM singer)';
const YOUNGER = 'How many singers are younger than the average singer age?';
const YOUNGER_SQL = 'SELECT count(*) FROM singer WHERE Age < (SELECT avg(Age) FROM singer)';
const BROKEN = 'SELECT nope FROM singer';

/** Two steps: the root compares with the leaf's average (`@[1]`). */
const dagOf = (comparison: string, leaf: string): SubQuestionDag => ({
  nodes: [
    { id: 0, question: `Count singers ${comparison} than @[1].` },
    { id: 1, question: leaf },
  ],
  edges: [[0, 1]],
});

const NODE_SQL: [string, string][] = [
  ['Count singers older', 'SELECT count(*) FROM singer WHERE Age > @[1]'],
  ['Count singers younger', 'SELECT count(*) FROM singer WHERE Age < @[1]'],
  // The first leaf of the older question does not run: the topology refiner revises the graph.
  ['Find the average age of singers, in years', 'SELECT avg(nope) FROM singer'],
  ['Find the average', 'SELECT avg(Age) FROM singer'],
  ['Compute the mean', 'SELECT avg(Age) FROM singer'],
];

export type Recorded = { name: string; workflowId: string; history: temporal.api.history.v1.IHistory };

/** Runs every scenario on fresh workers and returns its history. */
export async function recordQuestionHistories(): Promise<Recorded[]> {
  const gold = new Map([...concerts, ...pets].map((q) => [q.question, q.query]));
  gold.set(OLDER, OLDER_SQL);
  gold.set(YOUNGER, YOUNGER_SQL);
  const dextersqlQuestion = concerts[12];
  const wrongPaths: Record<string, string> = {
    'dependency-tree': 'SELECT song_name FROM singer',
    'divide-and-conquer': 'SELECT song_name FROM singer WHERE age > 30',
  };
  const llm = await startScriptedLlm();
  llm.setRules([
    ...scriptedDag({
      decompose: (question) =>
        question === OLDER ? dagOf('older', 'Find the average age of singers, in years.') : dagOf('younger', 'Find the average age of all singers.'),
      nodeSql: (step) => {
        const found = NODE_SQL.find(([prefix]) => step.startsWith(prefix));
        if (!found) throw new Error(`no scripted SQL for step "${step}"`);
        return found[1];
      },
      refine: () => dagOf('older', 'Compute the mean age of all singers.'),
    }),
    ...scriptedPipeline(gold, {
      complex: (question) => question === OLDER,
      // The fall-through: the direct path's SQL does not run.
      pathSql: (question, path) => (question === YOUNGER ? BROKEN : question === dextersqlQuestion.question ? wrongPaths[path] : undefined),
      // dextersql revises every candidate; this revision does not run, so it is rejected and the tournament decides.
      revisedSql: (question) => (question === dextersqlQuestion.question ? BROKEN : undefined),
      prefer: (_q, a, b) => (a === dextersqlQuestion.query ? 'A' : b === dextersqlQuestion.query ? 'B' : 'A'),
    }),
    ...scriptedExplorationRules,
  ]);
  // concert_singer is prepared with notes; pets_1 is not, so its first question prepares it.
  const stack = await startPreparedScriptedStack(llm, CONCERTS);
  const remote = await DecodexClient.connect({ address: stack.address, queuePrefix: stack.queuePrefix, checkDatabaseFiles: false });
  type Scenario = { name: string; client: DecodexClient; input: AnswerQuestionInput; expected: Pick<AnswerQuestionResult, 'outcome' | 'route'> };
  const answered = (route: AnswerQuestionResult['route']) => ({ outcome: 'answered' as const, route });
  const scenarios: Scenario[] = [
    { name: 'quick', client: stack.client, input: { question: concerts[3].question, database: CONCERTS, preset: 'quick' }, expected: answered('direct') },
    { name: 'hybrid', client: stack.client, input: { question: concerts[5].question, database: CONCERTS }, expected: answered('direct') },
    {
      name: 'dextersql-notes-tournament',
      client: stack.client,
      input: { question: dextersqlQuestion.question, database: CONCERTS, preset: 'dextersql' },
      expected: answered('direct'),
    },
    {
      name: 'decosearch-complex-refined',
      client: stack.client,
      input: { question: OLDER, database: CONCERTS, preset: 'decosearch' },
      expected: answered('complex'),
    },
    {
      name: 'decosearch-fall-through',
      client: stack.client,
      input: { question: YOUNGER, database: CONCERTS, preset: 'decosearch' },
      expected: answered('complex'),
    },
    {
      // Three paths write (no few-shot index here), the first two agree: the third is not asked (a patched() marker).
      name: 'hybrid-stops-on-agreement',
      client: stack.client,
      input: { question: concerts[6].question, database: CONCERTS, pipeline: { generation: { paths: ['direct', 'dependency-tree', 'divide-and-conquer'] } } },
      expected: answered('direct'),
    },
    {
      name: 'hybrid-prepares-then-budget',
      client: stack.client,
      input: { question: pets[1].question, database: PETS, limits: { budget: { maxLlmCalls: 3 } } },
      expected: { outcome: 'budget_exhausted', route: 'direct' },
    },
    {
      name: 'database-error',
      client: remote,
      input: { question: concerts[0].question, database: '/nonexistent/nowhere.sqlite', preset: 'quick' },
      expected: { outcome: 'database_error', route: 'direct' },
    },
  ];
  try {
    const recorded: Recorded[] = [];
    for (const { name, client, input, expected } of scenarios) {
      const { handle, result } = await client.ask(input, { workflowId: `replay-${name}-${Date.now()}` });
      // A scenario that no longer takes its route would record a history that proves nothing about that route.
      if (result.outcome !== expected.outcome || result.route !== expected.route)
        throw new Error(`scenario ${name} ended ${result.outcome} on the ${result.route} route, not ${expected.outcome} on the ${expected.route} route`);
      recorded.push({ name, workflowId: handle.workflowId, history: await handle.fetchHistory() });
    }
    return recorded;
  } finally {
    await remote.close();
    await stack.stop();
    await llm.close();
  }
}
