import { ApplicationFailure } from '@temporalio/common';
import type { PipelineOverrides } from '../../core/pipeline/pipeline-config';
import type { QuestionContext } from '../../core/question/question-context';
import { inputsOf, okDiagnosis, usage, withStubs, type StubbedStack } from '../support/stubbed-question-workers';

/**
 * Orchestration of each stage file under workflows/answer/, with stubbed activities: what each
 * stage schedules, with which inputs, and what it does when an activity fails or answers
 * something unusual. The activities themselves are tested end to end in answer-pipeline.test.ts.
 */
/** Without a preset: hybrid with notes, the judger and every path switched on, so each stage file runs. */
const EVERY_STAGE: PipelineOverrides = {
  notes: { enabled: true },
  judging: { enabled: true },
  generation: { paths: ['direct', 'dependency-tree', 'few-shot', 'divide-and-conquer'] },
};
const ask = (stack: StubbedStack, extra: { preset?: string; ablations?: string[] } = {}) =>
  stack.client.ask({ question: 'q?', database: '/stub.sqlite', ...(extra.preset ? {} : { pipeline: EVERY_STAGE }), ...extra }).then((r) => r.result);
const fail = (type: string) => async (): Promise<never> => {
  throw ApplicationFailure.nonRetryable(`stubbed ${type}`, type);
};

describe('workflows/answer stages, with stubbed activities', () => {
  it('link-schema (dextersql): retrieval, then three preliminary SQLs whose columns join the focus the generators see', async () => {
    await withStubs(
      (s) =>
        (s.online.retrieveSchemaElements = async () => ({
          focus: [{ table: 't', columns: ['a'] }],
          grounding: ['t.a: \'x\' = "x"'],
          counts: { profile: 1, value: 1, join: 0 },
        })),
      async (stack) => {
        const result = await ask(stack, { preset: 'dextersql' });
        expect((inputsOf(stack, 'draftPreliminarySql') as { view: string }[]).map((i) => i.view).sort()).toEqual(['focused', 'full', 'profiles']);
        const [ctx] = inputsOf(stack, 'generateSqlDependencyTree') as QuestionContext[];
        expect(ctx.focus).toEqual([{ table: 't', columns: ['a', 'b'] }]);
        expect(ctx.grounding).toEqual(['t.a: \'x\' = "x"']);
        expect(result.focusedSchema).toEqual([{ table: 't', columns: ['a', 'b'] }]);
        expect(result.trace.find((t) => t.step === 'finalFocusedSchema')?.outcome).toMatch(/\+1 columns from 3 drafts/);
      },
    );
  });

  it('link-schema (dextersql): linking.preliminaryViews drafts over the views it names only', async () => {
    await withStubs(
      () => undefined,
      async (stack) => {
        const { result } = await stack.client.ask({
          question: 'q?',
          database: '/stub.sqlite',
          preset: 'dextersql',
          pipeline: { linking: { preliminaryViews: ['focused'] } },
        });
        expect((inputsOf(stack, 'draftPreliminarySql') as { view: string }[]).map((i) => i.view)).toEqual(['focused']);
        expect(result.trace.find((t) => t.step === 'finalFocusedSchema')?.outcome).toMatch(/from 1 drafts/);
      },
    );
  });

  it("link-schema: linking.matchValues puts the matched values into the prompts of any strategy, and takes them out of dextersql's", async () => {
    const matched = ['t.a: \'France\' = "France"'];
    await withStubs(
      (s) =>
        (s.online.retrieveSchemaElements = async () => ({
          focus: [{ table: 't', columns: ['a'] }],
          grounding: matched,
          counts: { profile: 0, value: 1, join: 0 },
        })),
      async (stack) => {
        const generatorCtx = () => (inputsOf(stack, 'generateSqlDirect') as QuestionContext[]).at(-1)!;
        // quick as it is: no retrieval, the whole schema and no values.
        await stack.client.ask({ question: 'q?', database: '/stub.sqlite', preset: 'quick' });
        expect(inputsOf(stack, 'retrieveSchemaElements')).toHaveLength(0);
        expect(generatorCtx()).toMatchObject({ focus: null, grounding: [] });
        // quick with matched values: retrieval for its values alone, the schema still whole.
        await stack.client.ask({ question: 'q?', database: '/stub.sqlite', preset: 'quick', pipeline: { linking: { matchValues: true } } });
        expect(inputsOf(stack, 'retrieveSchemaElements')).toHaveLength(1);
        expect(generatorCtx()).toMatchObject({ focus: null, grounding: matched });
        // decosearch with matched values: the selector's focus, the retrieval's values.
        await stack.client.ask({ question: 'q?', database: '/stub.sqlite', preset: 'decosearch', pipeline: { linking: { matchValues: true } } });
        expect(generatorCtx()).toMatchObject({ focus: [{ table: 't', columns: ['a'] }], grounding: matched });
        // dextersql without them: retrieval still focuses, but neither the drafts nor the generators see values.
        await stack.client.ask({ question: 'q?', database: '/stub.sqlite', preset: 'dextersql', pipeline: { linking: { matchValues: false } } });
        const drafts = inputsOf(stack, 'draftPreliminarySql') as { ctx: QuestionContext }[];
        expect(drafts.length).toBeGreaterThan(0);
        expect(drafts.every((d) => d.ctx.grounding.length === 0)).toBe(true);
        const [ctx] = inputsOf(stack, 'generateSqlDependencyTree') as QuestionContext[];
        expect(ctx.grounding).toEqual([]);
        expect(ctx.focus).toEqual([{ table: 't', columns: ['a', 'b'] }]);
      },
    );
  });

  it('link-schema: matched values wanted of a database never prepared are none, and the trace says why', async () => {
    await withStubs(
      (s) => {
        const open = s.online.openQuestion;
        s.online.openQuestion = async (input) => ({ ...(await open(input)), prepared: null });
      },
      async (stack) => {
        const { result } = await stack.client.ask({ question: 'q?', database: '/stub.sqlite', preset: 'quick', pipeline: { linking: { matchValues: true } } });
        expect(inputsOf(stack, 'retrieveSchemaElements')).toHaveLength(0);
        expect((inputsOf(stack, 'generateSqlDirect') as QuestionContext[])[0].grounding).toEqual([]);
        expect(result.trace.find((t) => t.step === 'prepareDatabase')?.skipped).toMatch(/whenUnprepared is full-schema/);
        expect(result.trace.find((t) => t.step === 'retrieveSchemaElements')?.skipped).toMatch(/no matched values/);
      },
    );
  });

  it('link-schema (decosearch): no table selected means the whole schema, without a column call', async () => {
    await withStubs(
      (s) => (s.llm.selectTables = async () => ({ tables: [], returned: ['nonsense'], usage: usage('selector') })),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch' });
        expect(result.focusedSchema).toBeNull();
        expect(inputsOf(stack, 'selectColumns')).toHaveLength(0);
        expect(result.trace.find((t) => t.step === 'selectColumns')?.outcome).toMatch(/whole schema/);
        expect(result.outcome).toBe('answered');
      },
    );
  });

  it('link-schema: a failed selector is recorded and the run goes on over the whole schema', async () => {
    await withStubs(
      (s) => (s.llm.extractKeywords = fail('LlmServer')),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch' });
        expect(result.outcome).toBe('answered');
        expect(result.focusedSchema).toBeNull();
        expect(result.trace.find((t) => t.step === 'extractKeywords')).toMatchObject({ ok: false, detail: { error: 'stubbed LlmServer' } });
        expect(result.trace.find((t) => t.step === 'selector')?.outcome).toMatch(/whole schema \(stubbed LlmServer\)/);
      },
    );
  });

  it('incorporate-notes: no notes, no call; with notes, the selected ones and their columns reach the generators', async () => {
    await withStubs(
      () => undefined,
      async (stack) => {
        await ask(stack);
        expect(inputsOf(stack, 'selectRelevantNotes')).toHaveLength(0);
      },
    );
    await withStubs(
      (s) => {
        const open = s.online.openQuestion;
        s.online.openQuestion = async (input) => {
          const opened = await open(input);
          return { ...opened, prepared: { ...opened.prepared!, notes: 2 } };
        };
        s.llm.selectRelevantNotes = async (ctx) => ({
          candidates: 2,
          notes: ['t.a / u.a: a is per order'],
          selectedIds: ['n1'],
          focus: [...(ctx.focus ?? []), { table: 'u', columns: ['a'] }],
          added: [{ table: 'u', column: 'a' }],
          usage: [usage('note_selector')],
        });
      },
      async (stack) => {
        const result = await ask(stack);
        const [ctx] = inputsOf(stack, 'generateSqlDirect') as QuestionContext[];
        expect(ctx.notes).toEqual(['t.a / u.a: a is per order']);
        expect(ctx.focus).toContainEqual({ table: 'u', columns: ['a'] });
        expect(result.usage.byRole.note_selector.calls).toBe(1);
      },
    );
  });

  it('judge-route: a failed judger leaves the direct path, and says so', async () => {
    await withStubs(
      (s) => (s.llm.judgeComplexity = fail('LlmMalformed')),
      async (stack) => {
        const result = await ask(stack);
        expect(result.outcome).toBe('answered');
        expect(result.route).toBe('direct');
        expect(result.judgement).toBeUndefined();
        expect(result.trace.find((t) => t.stage === 'judging' && t.step === 'route')?.outcome).toMatch(/direct path by default: stubbed LlmMalformed/);
      },
    );
  });

  it('generate-candidates: few-shot only with examples; a failing path is recorded and the others still answer', async () => {
    await withStubs(
      (s) => {
        s.llm.generateSqlDependencyTree = fail('LlmBadRequest');
        s.llm.generateSqlDivideAndConquer = async () => ({ sql: 'SELECT 3', reasoning: '', usage: usage('generator') });
      },
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'generateSqlFewShot')).toHaveLength(0);
        expect(result.candidates.map((c) => c.path)).toEqual(['direct', 'divide-and-conquer']);
        expect(result.trace.find((t) => t.step === 'generateSqlDependencyTree')).toMatchObject({ ok: false, detail: { type: 'LlmBadRequest' } });
      },
    );
  });

  it('generate-candidates (hybrid, stopOnAgreement): when the first two paths run to one result the third is not asked; otherwise it is', async () => {
    // Few-shot has no examples here: the runnable paths are direct, dependency-tree and divide-and-conquer (quorum 2 of 3 at 0.6).
    await withStubs(
      () => undefined,
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(0);
        expect(result.candidates.map((c) => c.path)).toEqual(['direct', 'dependency-tree']);
        expect(result.trace.find((t) => t.step === 'generateSqlDivideAndConquer')?.skipped).toMatch(/first 2 paths' candidates run to the same result/);
        expect(result.sql).toBe('SELECT 1');
      },
    );
    await withStubs(
      (s) => (s.llm.generateSqlDependencyTree = async () => ({ sql: 'SELECT 2', reasoning: '', usage: usage('generator') })),
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(1);
        expect(result.candidates.map((c) => c.path)).toEqual(['direct', 'dependency-tree', 'divide-and-conquer']);
      },
    );
    // Off: every path writes at once, agreeing or not.
    await withStubs(
      () => undefined,
      async (stack) => {
        const { result } = await stack.client.ask({
          question: 'q?',
          database: '/stub.sqlite',
          pipeline: { ...EVERY_STAGE, generation: { ...EVERY_STAGE.generation!, stopOnAgreement: false } },
        });
        expect(result.candidates.map((c) => c.path)).toEqual(['direct', 'dependency-tree', 'divide-and-conquer']);
      },
    );
  });

  it('select-candidate (hybrid, setAsideWarned): candidates the reviser left warned by a question check neither stop generation early nor outvote a clean one', async () => {
    const warned = { check: 'unused-join', severity: 'warning' as const, message: 'joined for nothing' };
    const stubs: Parameters<typeof withStubs>[0] = (s) => {
      s.llm.generateSqlDirect = async () => ({ sql: 'SELECT w', reasoning: '', usage: usage('generator') });
      s.llm.generateSqlDependencyTree = async () => ({ sql: 'SELECT w', reasoning: '', usage: usage('generator') });
      s.llm.generateSqlDivideAndConquer = async () => ({ sql: 'SELECT c', reasoning: '', usage: usage('generator') });
      // The reviser cannot fix the warned query: it writes it again.
      s.llm.reviseSql = async () => ({ sql: 'SELECT w', reasoning: '', usage: usage('reviser') });
      s.online.diagnoseSql = async (input) => (input.sql === 'SELECT w' ? { ...okDiagnosis('w'), findings: [warned] } : okDiagnosis('c'));
    };
    await withStubs(stubs, async (stack) => {
      const result = await ask(stack);
      // The first two agree, but warned: the third path is asked, and its clean query is the answer.
      expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(1);
      expect(result.sql).toBe('SELECT c');
      expect(result.selection).toMatchObject({ method: 'confidence', confidence: 1 });
      expect(result.trace.find((t) => t.step === 'setAsideWarned')?.outcome).toBe(
        'direct, dependency-tree set aside: another candidate runs to another result without a warning',
      );
    });
    // A clean candidate with the same rows refutes the warning: the two agree, the third is not asked.
    await withStubs(
      (s) => {
        stubs(s);
        s.llm.generateSqlDependencyTree = async () => ({ sql: 'SELECT v', reasoning: '', usage: usage('generator') });
        s.online.diagnoseSql = async (input) => (input.sql === 'SELECT w' ? { ...okDiagnosis('w'), findings: [warned] } : okDiagnosis('w'));
      },
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(0);
        expect(result.sql).toBe('SELECT w');
        expect(result.trace.some((t) => t.step === 'setAsideWarned')).toBe(false);
      },
    );
    // Off: the two agreeing candidates settle the answer, as DexterSQL's vote has it.
    await withStubs(stubs, async (stack) => {
      const { result } = await stack.client.ask({
        question: 'q?',
        database: '/stub.sqlite',
        pipeline: { ...EVERY_STAGE, selection: { setAsideWarned: false } },
      });
      expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(0);
      expect(result.sql).toBe('SELECT w');
      expect(result.trace.some((t) => t.step === 'setAsideWarned')).toBe(false);
    });
    // A warning outside the question checks (an empty result) sets nothing aside.
    await withStubs(
      (s) => {
        stubs(s);
        s.online.diagnoseSql = async (input) =>
          input.sql === 'SELECT w' ? { ...okDiagnosis('w'), findings: [{ check: 'empty-result', severity: 'warning', message: 'no rows' }] } : okDiagnosis('c');
      },
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'generateSqlDivideAndConquer')).toHaveLength(0);
        expect(result.sql).toBe('SELECT w');
      },
    );
  });

  it('generate-candidates: when every path fails, the run is an llm_error with the first failure', async () => {
    await withStubs(
      (s) => {
        s.llm.generateSqlDirect = fail('LlmAuth');
        s.llm.generateSqlDependencyTree = fail('LlmAuth');
        s.llm.generateSqlDivideAndConquer = fail('LlmAuth');
        s.llm.draftPreliminarySql = fail('LlmAuth');
      },
      async (stack) => {
        const result = await ask(stack);
        expect(result.outcome).toBe('llm_error');
        expect(result.error).toEqual({ kind: 'LlmAuth', message: 'stubbed LlmAuth' });
        expect(result.sql).toBeNull();
      },
    );
  });

  it('correct-candidates: a revision that makes things worse is rejected and recorded; the original stays', async () => {
    await withStubs(
      (s) => {
        s.llm.generateSqlDependencyTree = async () => ({ sql: 'SELECT 9', reasoning: '', usage: usage('generator') });
        s.online.diagnoseSql = async (input) =>
          input.sql === 'SELECT 9'
            ? {
                findings: [{ check: 'empty-result', severity: 'warning', message: 'no rows' }],
                execution: { ok: true, rowCount: 0, truncated: false, columns: ['c'], resultKey: 'empty', preview: [] },
              }
            : input.sql === 'SELECT 2'
              ? { findings: [{ check: 'execution-error', severity: 'error', message: 'boom' }], execution: { ok: false, kind: 'sql_error', error: 'boom' } }
              : okDiagnosis('one');
      },
      async (stack) => {
        const result = await ask(stack);
        const tree = result.candidates.find((c) => c.path === 'dependency-tree')!;
        expect(tree.sql).toBe('SELECT 9');
        expect(tree.corrections).toEqual([]);
        expect(result.trace.some((t) => t.step === 'reviseSql' && /rejected/.test(t.summary))).toBe(true);
        expect(result.repairs).toBe(1);
        expect(result.sql).toBe('SELECT 1'); // the two agreeing candidates (2 of 3)
      },
    );
  });

  it('correct-candidates (decosearch): the refiner acts on errors only, not on warnings', async () => {
    await withStubs(
      (s) =>
        (s.online.diagnoseSql = async () => ({
          findings: [{ check: 'empty-result', severity: 'warning', message: 'no rows' }],
          execution: { ok: true, rowCount: 0, truncated: false, columns: ['c'], resultKey: 'e', preview: [] },
        })),
      async (stack) => {
        const result = await ask(stack, { preset: 'decosearch' });
        expect(inputsOf(stack, 'reviseSql')).toHaveLength(0);
        expect(result.candidates[0].findings).toEqual(['empty-result: no rows']);
        expect(result.outcome).toBe('answered');
      },
    );
  });

  it('select-candidate: below the threshold the top clusters play every pair once; wins plus confidence decide', async () => {
    await withStubs(
      (s) => {
        s.llm.generateSqlDependencyTree = async () => ({ sql: 'SELECT 2', reasoning: '', usage: usage('generator') });
        s.llm.generateSqlDivideAndConquer = async () => ({ sql: 'SELECT 3', reasoning: '', usage: usage('generator') });
        // B always wins: SELECT 3 (entrant 2) beats both, SELECT 2 beats SELECT 1.
        s.llm.compareCandidates = async () => ({ winner: 'B', reasoning: 'stub', usage: usage('selection_judge') });
      },
      async (stack) => {
        const result = await ask(stack);
        expect(inputsOf(stack, 'compareCandidates')).toHaveLength(3);
        expect(result.selection?.method).toBe('tournament');
        expect(result.sql).toBe('SELECT 3');
        expect(result.selection?.scores?.map((s) => Number(s.score.toFixed(3)))).toEqual([0.333, 0.833, 1.333]);
      },
    );
  });
});
