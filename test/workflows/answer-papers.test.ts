import type { Diagnosis } from '../../core/question/diagnosis';
import type { DecomposeInput } from '../../activities/decomposition/decompose-question';
import type { RefineTopologyInput } from '../../activities/decomposition/refine-topology';
import type { PipelineOverrides } from '../../core/pipeline/pipeline-config';
import { inputsOf, nodeRun, okDiagnosis, withStubs, type StubbedStack } from '../support/stubbed-question-workers';

/**
 * The presets that reproduce the papers do what the papers publish, and `hybrid` keeps decodex's
 * additions (issue 21), with stubbed activities: which activities run, how often, with what.
 */
const ask = (stack: StubbedStack, extra: { preset?: string; ablations?: string[]; pipeline?: PipelineOverrides; evidence?: string }) =>
  stack.client.ask({ question: 'q?', database: '/stub.sqlite', ...extra }).then((r) => r.result);
const names = (stack: StubbedStack) => stack.calls.map((c) => c.name);
const failing: Diagnosis = {
  findings: [{ check: 'execution-error', severity: 'error', message: 'no such column: x' }],
  execution: { ok: false, kind: 'sql_error', error: 'no such column: x' },
};
/** The direct path's SQL (and the stub reviser's) does not run; the DAG root's does. */
const directFails = async (input: { sql: string }) => (input.sql.includes('-- node') ? okDiagnosis('root') : failing);

describe('paper-faithful presets, with stubbed activities', () => {
  it('decosearch (Algorithm 1): a direct SQL that does not run goes straight to decomposition, and the DAG answer is not revised', async () => {
    await withStubs(
      (s) => (s.online.diagnoseSql = directFails),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch' });
        expect(inputsOf(stack, 'reviseSql')).toHaveLength(0);
        expect(inputsOf(stack, 'decomposeQuestion')).toHaveLength(1);
        expect(result.route).toBe('complex');
        expect(result.sql).toBe('SELECT 0 -- node');
        expect(result.candidates.map((c) => [c.path, c.corrections])).toEqual([
          ['direct', []],
          ['sub-question-dag', []],
        ]);
      },
    );
  });

  it('hybrid keeps the SQL refiner before the fall-through', async () => {
    await withStubs(
      (s) => (s.online.diagnoseSql = directFails),
      async (stack) => {
        const result = await ask(stack, { preset: 'hybrid' });
        const calls = names(stack);
        expect(calls).toContain('reviseSql');
        expect(calls.indexOf('reviseSql')).toBeLessThan(calls.indexOf('decomposeQuestion'));
        expect(result.route).toBe('complex');
      },
    );
  });

  it('decosearch − judger decomposes every question; an empty node result does not call the topology refiner; the decomposer runs at 0.1 with k = 3', async () => {
    await withStubs(
      (s) => (s.online.executeNode = async (input) => nodeRun(input.node.id, input.sql, input.node.id === 1 ? 'empty' : undefined)),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch', ablations: ['judger'] });
        expect(inputsOf(stack, 'judgeComplexity')).toHaveLength(0);
        expect(result.route).toBe('complex');
        expect(inputsOf(stack, 'refineTopology')).toHaveLength(0);
        expect(result.dag).toMatchObject({ refinements: 0, rejectedRefinements: 0, degraded: false });
        expect(result.dag!.nodes.find((n) => n.id === 1)).toMatchObject({ state: 'done' });
        const [decompose] = inputsOf(stack, 'decomposeQuestion') as DecomposeInput[];
        expect(decompose).toMatchObject({ temperature: 0.1, examples: 3 });
        expect(result.pipeline.label).toBe('decosearch − judger');
      },
    );
  });

  it('decosearch: a failing node calls the refiner once with the hint; a rejected proposal accepts the node and the DAG goes on', async () => {
    await withStubs(
      (s) => (s.online.executeNode = async (input) => nodeRun(input.node.id, input.sql, input.node.id === 1 ? 'error' : undefined)),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch', ablations: ['judger'], evidence: 'x means y' });
        const refinerCalls = inputsOf(stack, 'refineTopology') as RefineTopologyInput[];
        expect(refinerCalls).toHaveLength(1);
        expect(refinerCalls[0]).toMatchObject({ evidence: 'x means y', failedNode: 1, rejected: [] });
        expect(result.dag).toMatchObject({ rejectedRefinements: 1, degraded: true });
        expect(result.dag!.nodes.find((n) => n.id === 0)).toMatchObject({ state: 'done' });
      },
    );
  });

  it('hybrid: an empty node result calls the refiner, which is asked again after each rejection until B = 3 is spent', async () => {
    await withStubs(
      (s) => (s.online.executeNode = async (input) => nodeRun(input.node.id, input.sql, input.node.id === 1 ? 'empty' : undefined)),
      async (stack) => {
        const result = await ask(stack, { preset: 'hybrid', pipeline: { decomposition: { always: true } } });
        const refinerCalls = inputsOf(stack, 'refineTopology') as RefineTopologyInput[];
        expect(refinerCalls).toHaveLength(3);
        expect(refinerCalls[2].rejected).toHaveLength(2);
        expect((inputsOf(stack, 'decomposeQuestion') as DecomposeInput[])[0].temperature).toBe(0);
        expect(result.dag).toMatchObject({ rejectedRefinements: 3, degraded: true });
      },
    );
  });

  it('decosearch − refinement: a failing node is accepted without asking the refiner', async () => {
    await withStubs(
      (s) => (s.online.executeNode = async (input) => nodeRun(input.node.id, input.sql, input.node.id === 1 ? 'error' : undefined)),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch', ablations: ['judger', 'refinement'] });
        expect(inputsOf(stack, 'refineTopology')).toHaveLength(0);
        expect(result.dag).toMatchObject({ refinements: 0, rejectedRefinements: 0, degraded: true });
      },
    );
  });

  it('dextersql revises every candidate (§3.4.1 Step 2), even one no check flags; hybrid only when a check fires', async () => {
    await withStubs(
      () => undefined,
      async (stack) => {
        const result = await ask(stack, { preset: 'dextersql' });
        // dependency tree and divide and conquer (few-shot is skipped without examples)
        expect(inputsOf(stack, 'reviseSql')).toHaveLength(2);
        expect(result.candidates.every((c) => c.corrections.length === 1)).toBe(true);
      },
    );
    await withStubs(
      () => undefined,
      async (stack) => {
        await ask(stack, { preset: 'hybrid' });
        expect(inputsOf(stack, 'reviseSql')).toHaveLength(0);
      },
    );
  });

  it('overrides reach the run and its label', async () => {
    await withStubs(
      () => undefined,
      async (stack) => {
        const result = await ask(stack, { preset: 'dextersql', pipeline: { selection: { confidenceThreshold: 0.3 } } });
        expect(result.pipeline).toMatchObject({
          overrides: { selection: { confidenceThreshold: 0.3 } },
          label: 'dextersql [selection.confidenceThreshold=0.3]',
        });
      },
    );
  });
});
