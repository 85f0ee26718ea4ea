import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AnswerQuestionResult } from '../../core/answer-question-types';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { storeDecompositionExamples } from '../../activities/knowledge/decomposition-examples';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import { formatResult } from '../../cli/print-result';
import { REFINEMENTS } from '../../core/search-attributes';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { activityRecords } from '../../devkit/activity-history';
import { createFormula1, createThrombosis, expectedThrombosisRatio } from '../../devkit/appendix-d-databases';
import { scriptedDag, type ScriptedDagOptions } from '../../devkit/scripted-dag';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * DecoSearch's complex route end to end (real Temporal dev server, real SQLite, scripted LLM):
 * the judger sends the question to the decomposer, the DAG runs in topological waves with
 * upstream results injected, failing nodes are refined, and the root's SQL answers.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-dag-'));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const DIRECT_SQL = 'SELECT -1';

const D1 = {
  question: 'How many accidents did the driver who had the highest number of accidents in the Canadian Grand Prix have?',
  evidence: "number of accidents refers to the number where statusid = 3; Canadian Grand Prix refers to the race of name 'Canadian Grand Prix'",
  dag: {
    nodes: [
      { id: 0, question: 'Count accidents for driver @[2] across races @[1].' },
      { id: 1, question: "Find the raceId(s) for the race named 'Canadian Grand Prix'." },
      { id: 2, question: 'Find the driverId with the most accidents (statusId=3) among races @[1].' },
    ],
    edges: [
      [0, 1],
      [0, 2],
      [2, 1],
    ],
  } as SubQuestionDag,
  sql: [
    ['Find the raceId', "SELECT raceId FROM races WHERE name = 'Canadian Grand Prix'"],
    ['Find the driverId', 'SELECT driverId FROM results WHERE statusId = 3 AND raceId IN @[1] GROUP BY driverId ORDER BY COUNT(*) DESC LIMIT 1'],
    ['Count accidents', 'SELECT COUNT(*) FROM results WHERE driverId = @[2] AND statusId = 3 AND raceId IN @[1]'],
  ],
};

/** D.2, with the question varied per test (each test asks its own, so no cached answer crosses tests). */
function d2(tag: string) {
  return {
    question: `What is the ratio of male to female patients among all those with abnormal uric acid counts${tag}?`,
    evidence: "male means SEX = 'M'; female means SEX = 'F'; abnormal uric acid refers to UA <= 8.0 for males and UA <= 6.5 for females",
    dag: {
      nodes: [
        { id: 0, question: `Compute CAST(@[1] AS REAL) / @[2]${tag}.` },
        { id: 1, question: `Count distinct male patients (SEX='M') from @[3]${tag}.` },
        { id: 2, question: `Count distinct female patients (SEX='F') from @[3]${tag}.` },
        { id: 3, question: `Find all patient IDs where UA is abnormal: (SEX='M' and UA<=8.0) or (SEX='F' and UA<=6.5)${tag}.` },
      ],
      edges: [
        [0, 1],
        [0, 2],
        [1, 3],
        [2, 3],
      ],
    } as SubQuestionDag,
    sql: [
      [
        'Find all patient IDs',
        "SELECT DISTINCT l.ID FROM Laboratory l JOIN Patient p ON l.ID = p.ID WHERE (p.SEX = 'M' AND l.UA <= 8.0) OR (p.SEX = 'F' AND l.UA <= 6.5)",
      ],
      ['Count distinct male', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'M'"],
      ['Count distinct female', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'F'"],
      ['Compute CAST', 'SELECT CAST(@[1] AS REAL) / NULLIF(@[2], 0) AS ratio'],
    ],
  };
}

type Case = { question: string; dag: SubQuestionDag; sql: string[][] };

describe('the complex route (sub-question DAG)', () => {
  let llm: ScriptedLlm;
  let stack: TestStack;
  const cases: Case[] = [];
  let refine: ScriptedDagOptions['refine'];
  let nodeSqlOverride: ((step: string) => string | undefined) | undefined;
  let decomposeOverride: ((question: string, attempt: number) => unknown) | undefined;
  const formula1 = createFormula1(dir);
  const thrombosis = createThrombosis(dir, 12);
  const large = createThrombosis(dir, 300, 'thrombosis_large');
  const hashes = new Map([formula1, thrombosis, large].map((f) => [f, sha256(f)]));

  const rules = () => [
    ...scriptedDag({
      decompose: (question, attempt) => decomposeOverride?.(question, attempt) ?? cases.find((c) => c.question === question)!.dag,
      nodeSql: (step) => {
        const override = nodeSqlOverride?.(step);
        if (override) return override;
        for (const c of cases) for (const [prefix, sql] of c.sql) if (step.startsWith(prefix)) return sql;
        throw new Error(`no scripted SQL for step "${step}"`);
      },
      refine: (question, call, prompt) => refine!(question, call, prompt),
    }),
    ...scriptedPipeline(new Map([...cases.map((c) => [c.question, DIRECT_SQL] as [string, string]), ['Which race had the fewest finishers?', DIRECT_SQL]]), {
      complex: () => true,
    }),
  ];
  const ask = async (c: Case & { evidence: string }, database: string, extra: object = {}) => {
    cases.push(c);
    llm.setRules(rules());
    return stack.client.ask({ question: c.question, evidence: c.evidence, database, preset: 'decosearch', ablations: ['selector'], ...extra });
  };
  const executed = async (handle: Parameters<typeof activityRecords>[0]) =>
    (await activityRecords(handle)).filter((a) => a.name === 'executeNode').map((a) => (a.input as { node: { id: number } }).node.id);
  const nodeSqlOf = (result: AnswerQuestionResult, id: number) => result.dag!.nodes.find((n) => n.id === id)!.sql;

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: [] });
    stack = await startTestStack({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'k',
      DECODEX_LLM_TIMEOUT_MS: '3000',
    });
  }, 60_000);
  afterEach(() => {
    refine = undefined;
    nodeSqlOverride = undefined;
    decomposeOverride = undefined;
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
    // No generated SQL, node result or relation changed a database file.
    for (const [file, hash] of hashes) expect(sha256(file)).toBe(hash);
  });

  it('appendix D.1 (formula_1): a chain executed 1 → 2 → 0 with the race ids and the driver injected; answer 2', async () => {
    const { result, handle } = await ask({ ...D1 }, formula1);
    expect(result).toMatchObject({ outcome: 'answered', route: 'complex', rows: [[2]] });
    expect(await executed(handle)).toEqual([1, 2, 0]);
    expect(nodeSqlOf(result, 2)).toBe('SELECT driverId FROM results WHERE statusId = 3 AND raceId IN (1, 3) GROUP BY driverId ORDER BY COUNT(*) DESC LIMIT 1');
    expect(nodeSqlOf(result, 0)).toBe('SELECT COUNT(*) FROM results WHERE driverId = (10) AND statusId = 3 AND raceId IN (1, 3)');
    expect(result.dag).toMatchObject({ refinements: 0, degraded: false, examples: 0, final: D1.dag });
    expect(result.dag!.nodes.map((n) => [n.id, n.state, n.wave, n.passedAs])).toEqual([
      [0, 'done', 2, 'inline'],
      [1, 'done', 0, 'inline'],
      [2, 'done', 1, 'inline'],
    ]);
    // The root's SQL is the route's candidate; the direct path did not run.
    expect(result.candidates.map((c) => c.path)).toEqual(['sub-question-dag']);
    expect(result.sql).toBe(nodeSqlOf(result, 0));
    expect(result.usage.byRole).toMatchObject({ judger: { calls: 1 }, decomposer: { calls: 1 }, generator: { calls: 3 } });
    expect(result.trace.find((t) => t.step === 'decomposeQuestion')?.outcome).toMatch(/zero-shot/);
    // `decodex ask` prints the DAG as it ran, wave by wave.
    const printed = formatResult(result, 'http://ui');
    expect(printed).toContain('sub-question DAG (3 nodes, 0 refinement(s)):');
    expect(printed).toMatch(/\[1\] wave 0 done, 2 rows: Find the raceId[\s\S]*\[2\] wave 1 done, 1 rows[\s\S]*\[0\] wave 2 done, 1 rows/);
    // The step prompt showed the resolved values.
    const step2 = llm.requests.find((r) => r.prompt?.user.includes('Step: Find the driverId'))!;
    expect(step2.prompt!.user).toContain('among races (1, 3)');
  });

  it("appendix D.2 (thrombosis, a diamond): 3, then 1 and 2 in one wave, then 0; the paper's ratio", async () => {
    const c = d2('');
    const { result, handle } = await ask(c, thrombosis);
    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[expectedThrombosisRatio(12)]]);
    const order = await executed(handle);
    expect(order[0]).toBe(3);
    expect(order.slice(1, 3).sort()).toEqual([1, 2]);
    expect(order[3]).toBe(0);
    expect(result.dag!.nodes.filter((n) => n.id === 1 || n.id === 2).map((n) => n.wave)).toEqual([1, 1]);
    // Both branches got node 3's ids inline.
    const abnormal = new Database(thrombosis, { readonly: true })
      .prepare("SELECT DISTINCT l.ID FROM Laboratory l JOIN Patient p ON l.ID = p.ID WHERE (p.SEX = 'M' AND l.UA <= 8.0) OR (p.SEX = 'F' AND l.UA <= 6.5)")
      .pluck()
      .all() as number[];
    expect(nodeSqlOf(result, 1)).toBe(`SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN (${abnormal.join(', ')}) AND p.SEX = 'M'`);
    expect(nodeSqlOf(result, 2)).toBe(`SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN (${abnormal.join(', ')}) AND p.SEX = 'F'`);
    expect(nodeSqlOf(result, 0)).toMatch(/^SELECT CAST\(\(\d+\) AS REAL\) \/ NULLIF\(\(\d+\), 0\) AS ratio$/);
  });

  it('an upstream of more than 100 rows reaches its downstream nodes as the relation n3', async () => {
    const c = d2(' in the large cohort');
    const { result } = await ask(c, large);
    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[expectedThrombosisRatio(300)]]);
    const n3 = result.dag!.nodes.find((n) => n.id === 3)!;
    expect(n3.rowCount).toBeGreaterThan(100);
    expect(n3.passedAs).toBe('relation');
    expect(nodeSqlOf(result, 1)).toBe(`SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN (SELECT "ID" FROM n3) AND p.SEX = 'M'`);
    // The step prompt named the relation instead of listing 150+ values.
    const step1 = llm.requests.find((r) => r.prompt?.user.includes('Step: Count distinct male') && r.prompt.user.includes('large cohort'))!;
    expect(step1.prompt!.user).toMatch(/@\[3\], step 3 "Find all patient IDs[^"]*": \d{3} rows, too many to list: table n3\(ID\)/);
    expect(step1.prompt!.user).toMatch(/Step: Count distinct male patients \(SEX='M'\) from the values in table n3/);
  });

  it('a failing node is refined (C.5): the revised node runs, unchanged nodes keep their results, Refinements is set', async () => {
    const c = d2(' (refined)');
    nodeSqlOverride = (step) =>
      step.startsWith('Count distinct male') ? "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.GENDER = 'M'" : undefined;
    c.sql.push(['Count patients whose SEX is M', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'M'"]);
    refine = (_q, call, prompt) => {
      expect(call).toBe(1);
      expect(prompt.user).toMatch(/Step 1 failed[\s\S]*no such column: p\.GENDER/);
      expect(prompt.user).toMatch(/Steps that ran successfully: 2, 3/);
      return { ...c.dag, nodes: c.dag.nodes.map((n) => (n.id === 1 ? { id: 1, question: 'Count patients whose SEX is M among @[3] (refined).' } : n)) };
    };
    const { result, handle } = await ask(c, thrombosis);
    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[expectedThrombosisRatio(12)]]);
    const order = await executed(handle);
    expect(order.filter((id) => id === 3)).toHaveLength(1); // node 3 kept its result
    expect(order.filter((id) => id === 2)).toHaveLength(1); // so did node 2
    expect(order.filter((id) => id === 1)).toHaveLength(2); // failed, then ran revised
    expect(order.at(-1)).toBe(0);
    expect(result.dag).toMatchObject({ refinements: 1, rejectedRefinements: 0, degraded: false });
    expect(result.dag!.revisions.map((r) => [r.origin.split(' ')[0], r.rejected ?? null])).toEqual([
      ['decomposer', null],
      ['refiner', null],
    ]);
    expect(result.dag!.nodes.find((n) => n.id === 1)).toMatchObject({ state: 'done', question: 'Count patients whose SEX is M among @[3] (refined).' });
    expect(result.repairs).toBe(1);
    const described = await handle.describe();
    expect(described.typedSearchAttributes.get(REFINEMENTS)).toBe(1);
  });

  it('refinements that are the same plan, or have a cycle, are rejected and counted; the third is used', async () => {
    const c = d2(' (rejections)');
    nodeSqlOverride = (step) => (step.startsWith('Count distinct female') ? "SELECT COUNT(*) FROM Patient p WHERE p.ID IN @[3] AND p.SEXX = 'F'" : undefined);
    c.sql.push(['Count the women', "SELECT COUNT(DISTINCT p.ID) FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'F'"]);
    const renumber = (id: number) => (id === 0 ? 0 : id + 10);
    refine = (_q, call) => {
      if (call === 1)
        return {
          nodes: c.dag.nodes.map((n) => ({ id: renumber(n.id), question: n.question.replace(/@\[(\d+)\]/g, (_m, d) => `@[${renumber(Number(d))}]`) })),
          edges: c.dag.edges.map(([p, ch]) => [renumber(p), renumber(ch)]),
        };
      if (call === 2) return { ...c.dag, edges: [...c.dag.edges, [3, 0]] };
      return { ...c.dag, nodes: c.dag.nodes.map((n) => (n.id === 2 ? { id: 2, question: 'Count the women among @[3] (rejections).' } : n)) };
    };
    // Asking again after a rejection is hybrid's choice; decosearch (Algorithm 1) accepts the node at once.
    const { result } = await ask(c, thrombosis, { pipeline: { decomposition: { retryRejected: true } } });

    expect(result.outcome).toBe('answered');
    expect(result.rows).toEqual([[expectedThrombosisRatio(12)]]);
    expect(result.dag!.revisions.map((r) => r.rejected ?? 'used')).toEqual([
      'used',
      expect.stringMatching(/^isomorphic/),
      expect.stringMatching(/^cycle/),
      'used',
    ]);
    expect(result.dag).toMatchObject({ refinements: 1, rejectedRefinements: 2, degraded: false });
    expect(result.usage.byRole.topology_refiner.calls).toBe(3);
  });

  it("when the B = 3 refinements run out, the failing node's best result is accepted and the root still runs", async () => {
    const c = d2(' (degraded)');
    // Node 2 finds no rows however the plan changes: an empty result is a failure (nothing to build on).
    nodeSqlOverride = (step) => (step.startsWith('Count distinct female') ? "SELECT p.ID FROM Patient p WHERE p.ID IN @[3] AND p.SEX = 'X'" : undefined);
    refine = () => c.dag; // always the same plan: rejected every time
    // hybrid's refiner settings: an empty result calls the refiner, which is asked again after each rejection.
    const { result, handle } = await ask(c, thrombosis, { pipeline: { decomposition: { refineOn: 'errors-and-empty', retryRejected: true } } });
    expect(result.outcome).toBe('answered');
    expect(result.dag).toMatchObject({ refinements: 0, rejectedRefinements: 3, degraded: true });
    expect(result.dag!.nodes.find((n) => n.id === 2)).toMatchObject({ state: 'accepted-degraded', rowCount: 0 });
    // The root divided by an empty input: NULL (itself a failed result, accepted as well: no refinement is left).
    expect(result.dag!.nodes.find((n) => n.id === 0)).toMatchObject({ state: 'accepted-degraded', rowCount: 1 });
    expect(result.rows).toEqual([[null]]);
    expect(nodeSqlOf(result, 0)).toMatch(/NULLIF\(\(NULL\), 0\)/);
    expect(result.trace.some((t) => t.step === 'degrade' && /accepted the best result of node\(s\) 2/.test(t.outcome ?? ''))).toBe(true);
    expect(result.usage.byRole.topology_refiner.calls).toBe(3);
    expect((await handle.describe()).typedSearchAttributes.get(REFINEMENTS)).toBe(3);
    expect(formatResult(result, 'http://ui')).toMatch(
      /sub-question DAG \(4 nodes, 0 refinement\(s\), 3 rejected, degraded\)[\s\S]*\[2\] wave 1 accepted-degraded, 0 rows/,
    );
  });

  it('an invalid decomposition is sent back once with the problem named, then the direct path answers', async () => {
    const c = { ...d2(' (invalid plan)') };
    decomposeOverride = (question) => (question === c.question ? { nodes: [{ id: 1, question: 'Find the patients' }], edges: [] } : undefined);
    const { result } = await ask(c, thrombosis);
    expect(result).toMatchObject({ outcome: 'answered', route: 'direct', rows: [[-1]] });
    expect(result.dag).toBeUndefined();
    expect(result.judgement?.override).toMatch(/no valid graph \(there is no root node 0.*direct path answers/);
    expect(result.usage.byRole.decomposer.calls).toBe(2);
    const second = llm.requests.filter((r) => r.roleGuess === 'decomposer' && r.prompt?.user.includes('(invalid plan)'))[1];
    expect(second.prompt!.user).toMatch(/Your previous plan could not be used: there is no root node 0/);
    expect(result.candidates.map((x) => x.path)).toEqual(['direct']);
  });

  it('with decomposition.seedPlan and no knowledge base, the decomposer is shown the worked seed plan; without it, none', async () => {
    const { result } = await ask(d2(' (seeded)'), thrombosis, { pipeline: { decomposition: { seedPlan: true } } });
    expect(result.outcome).toBe('answered');
    expect(result.dag?.examples).toBe(0);
    expect(result.trace.find((t) => t.step === 'decomposeQuestion')?.outcome).toMatch(/the seed plan \(no example in the knowledge base\)/);
    const decomposerPrompt = (tag: string) => llm.requests.find((r) => r.roleGuess === 'decomposer' && r.prompt?.user.includes(tag))!.prompt!;
    const seeded = decomposerPrompt('(seeded)');
    expect(seeded.system).toMatch(/How plans look \(a made-up library database, not yours\):[\s\S]*"question": "Which author id has written the most books\?"/);
    expect(seeded.system).not.toContain('Plans that answered similar questions correctly');
    await ask(d2(' (unseeded)'), thrombosis);
    expect(decomposerPrompt('(unseeded)').system).not.toContain('How plans look');
  });

  // Last: the knowledge base, once stored, grounds every later decomposition of this stack.
  it('with a decomposition knowledge base, the decomposer is shown the most similar past plans (k = 3)', async () => {
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const vectors = new EmbeddedVectorStore(stack.vectorsDir!);
    const past = (question: string, database: string) => ({
      question,
      database,
      dag: { nodes: [{ id: 0, question: `${question} (past plan)` }], edges: [] as [number, number][] },
    });
    // The test stack's workers embed with the hashed embedder: the examples must be stored with it too.
    await storeDecompositionExamples({ store, vectors, embedder: new HashedEmbedder() }, [
      past('What is the ratio of men to women among patients with a high cholesterol count?', 'hospital_1'),
      past('What is the ratio of male to female students with abnormal grades?', 'college_2'),
      past('How many cars did the maker with the most models produce?', 'car_1'),
      past('List the names of all the pilots.', 'flight_1'),
    ]);
    await vectors.close();
    await store.close();
    const c = d2(' (with examples)');
    const { result } = await ask(c, thrombosis);
    expect(result.outcome).toBe('answered');
    expect(result.dag?.examples).toBe(3);
    expect(result.trace.find((t) => t.step === 'decomposeQuestion')?.outcome).toMatch(/3 example\(s\) from the knowledge base/);
    const prompt = llm.requests.find((r) => r.roleGuess === 'decomposer' && r.prompt?.user.includes('(with examples)'))!.prompt!;
    expect(prompt.system).toMatch(/Plans that answered similar questions correctly:[\s\S]*ratio of men to women[\s\S]*\(past plan\)/);
    expect(prompt.system).toContain('ratio of male to female students with abnormal grades');
    expect(prompt.system.match(/^Example \d+$/gm)).toHaveLength(3);
  });
});
