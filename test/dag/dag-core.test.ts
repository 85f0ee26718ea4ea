import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateJson, type JsonSchema } from '../../activities/llm/json-schema';
import { isSamePlan, unchangedNodes } from '../../core/dag/dag-changes';
import { placeholdersIn, replacePlaceholders } from '../../core/dag/placeholders';
import { prependCtes } from '../../core/dag/prepend-ctes';
import { CycleError, topologicalWaves, upstreamOf } from '../../core/dag/topological-waves';
import { validateDag } from '../../core/dag/validate-dag';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';

/** Appendix D.2's diamond: 3 feeds 1 and 2, which feed the root 0. */
const DIAMOND: SubQuestionDag = {
  nodes: [
    { id: 0, question: 'Compute CAST(@[1] AS REAL) / @[2]' },
    { id: 1, question: 'Count male patients among @[3]' },
    { id: 2, question: 'Count female patients among @[3]' },
    { id: 3, question: 'Find the ids of patients with abnormal uric acid' },
  ],
  edges: [
    [0, 1],
    [0, 2],
    [1, 3],
    [2, 3],
  ],
};

describe('sub-question DAGs', () => {
  it('finds and replaces @[n] placeholders, each id once', () => {
    expect(placeholdersIn('ratio of @[1] to @[ 2 ] over @[1]')).toEqual([1, 2]);
    expect(replacePlaceholders('x IN @[3] AND y = @[2]', (id, before) => (/IN\s*$/.test(before) ? `(S${id})` : `v${id}`))).toBe('x IN (S3) AND y = v2');
  });

  it("Kahn's algorithm gives waves of independent nodes, leaves first", () => {
    expect(topologicalWaves(DIAMOND)).toEqual([[3], [1, 2], [0]]);
    expect([...upstreamOf({ ...DIAMOND, nodes: [...DIAMOND.nodes, { id: 7, question: 'unused' }] }, 0)].sort()).toEqual([0, 1, 2, 3]);
    expect(() => topologicalWaves({ nodes: DIAMOND.nodes, edges: [...DIAMOND.edges, [3, 0]] })).toThrow(CycleError);
  });

  it('validates a proposed graph and names the first problem', () => {
    expect(validateDag(DIAMOND)).toMatchObject({ ok: true });
    const problem = (raw: unknown) => {
      const check = validateDag(raw);
      return check.ok ? null : check.problem;
    };
    expect(problem({ nodes: [{ id: 1, question: 'a' }], edges: [] })).toMatch(/no root node 0/);
    expect(
      problem({
        nodes: [
          { id: 0, question: 'a' },
          { id: 0, question: 'b' },
        ],
        edges: [],
      }),
    ).toMatch(/node id 0 is used twice/);
    expect(problem({ nodes: [{ id: 0, question: 'count @[4]' }], edges: [] })).toMatch(/refers to @\[4\], which is not a node/);
    expect(problem({ nodes: [{ id: 0, question: 'a' }], edges: [[0, 5]] })).toMatch(/names a node that does not exist/);
    expect(problem('not json')).toMatch(/not a JSON object/);
    const cyclic = validateDag({ nodes: DIAMOND.nodes, edges: [...DIAMOND.edges, [3, 0]] });
    expect(cyclic).toMatchObject({ ok: false, cycle: true });
    // A placeholder declares its dependency: the missing edge is added, and said.
    const implied = validateDag({
      nodes: [
        { id: 0, question: 'count @[1]' },
        { id: 1, question: 'ids' },
      ],
      edges: [],
    });
    expect(implied).toMatchObject({ ok: true, dag: { edges: [[0, 1]] }, notes: [expect.stringMatching(/edge was added/)] });
  });

  it('a renumbered copy is the same plan; a rephrased node or a rewired edge is not', () => {
    const renumbered: SubQuestionDag = {
      nodes: [
        { id: 0, question: 'compute cast(@[5] as real) / @[6]' },
        { id: 5, question: 'Count male patients among @[9]' },
        { id: 6, question: 'Count  female patients among @[9]' },
        { id: 9, question: 'Find the ids of patients with abnormal uric acid' },
      ],
      edges: [
        [0, 5],
        [0, 6],
        [5, 9],
        [6, 9],
      ],
    };
    expect(isSamePlan(DIAMOND, renumbered)).toBe(true);
    const rephrased = {
      ...DIAMOND,
      nodes: DIAMOND.nodes.map((n) => (n.id === 3 ? { ...n, question: 'Find patient ids whose UA is abnormal for their sex' } : n)),
    };
    expect(isSamePlan(DIAMOND, rephrased)).toBe(false);
    expect(isSamePlan(DIAMOND, { ...DIAMOND, edges: DIAMOND.edges.filter(([p, c]) => !(p === 2 && c === 3)) })).toBe(false);
  });

  it('after a revision, only nodes with the same text and unchanged inputs keep their results', () => {
    const rephrased = { ...DIAMOND, nodes: DIAMOND.nodes.map((n) => (n.id === 2 ? { ...n, question: 'Count patients with SEX = F among @[3]' } : n)) };
    expect([...unchangedNodes(DIAMOND, rephrased)].sort()).toEqual([1, 3]);
    const leafChanged = { ...DIAMOND, nodes: DIAMOND.nodes.map((n) => (n.id === 3 ? { ...n, question: 'other ids' } : n)) };
    expect([...unchangedNodes(DIAMOND, leafChanged)]).toEqual([]);
  });

  it("the decomposer's and refiner's answer schemas admit a 10-node plan in 3 waves (bench:dag's), and the validator accepts it", () => {
    const leaves = [6, 7, 8, 9];
    const middle = [1, 2, 3, 4, 5];
    const plan = {
      nodes: [
        { id: 0, question: `Sum ${middle.map((m) => `@[${m}]`).join(' ')}` },
        ...middle.map((m) => ({ id: m, question: `Count among @[${leaves[m % 4]}] and @[${leaves[(m + 1) % 4]}]` })),
        ...leaves.map((l) => ({ id: l, question: `Leaf ${l}` })),
      ],
      edges: [
        ...middle.map((m) => [0, m]),
        ...middle.flatMap((m) => [
          [m, leaves[m % 4]],
          [m, leaves[(m + 1) % 4]],
        ]),
      ],
    };
    for (const template of ['decompose-question', 'refine-topology'] as const) {
      const schema = JSON.parse(readFileSync(path.join(__dirname, '../../prompts', `${template}.schema.json`), 'utf8')) as JsonSchema;
      expect(validateJson(plan, schema)).toEqual([]);
    }
    const check = validateDag(plan);
    expect(check.ok && topologicalWaves(check.dag)).toEqual([leaves, middle, [0]]);
  });

  it('prepends common table expressions, merging with a query that has its own WITH', () => {
    expect(prependCtes('SELECT 1', ['a AS (SELECT 2)'])).toBe('WITH a AS (SELECT 2) SELECT 1');
    expect(prependCtes('  with x as (select 1) select * from x', ['a AS (SELECT 2)'])).toBe('WITH a AS (SELECT 2), x as (select 1) select * from x');
    expect(prependCtes('WITH RECURSIVE r(n) AS (SELECT 1) SELECT n FROM r', ['a AS (SELECT 2)'])).toBe(
      'WITH RECURSIVE a AS (SELECT 2), r(n) AS (SELECT 1) SELECT n FROM r',
    );
  });
});
