import { accuracyLines, accuracyMarkdown, accuracyRow, speedLines } from '../../core/benchmark/accuracy-table';
import type { BenchmarkRecord } from '../../core/benchmark/benchmark-types';
import { emptyUsage } from '../../core/usage';
import { benchmarkRecord } from '../../devkit/benchmark-record';

const record = (index: number, verdict: BenchmarkRecord['verdict'], usage: Partial<BenchmarkRecord['usage']>): BenchmarkRecord =>
  benchmarkRecord(index, verdict, { difficulty: index % 2 ? 'easy' : 'hard', usage: { ...emptyUsage(), ...usage }, latencyMs: 2000 });

describe('the accuracy table (bench:accuracy)', () => {
  it('counts what a configuration sends, cached answers at their original cost, and says how much was cached', () => {
    const row = accuracyRow('hybrid − selection', [
      record(1, 'correct', { llmCalls: 4, cacheHits: 3, promptTokens: 100, reusedPromptTokens: 40, cachedPromptTokens: 900 }),
      record(2, 'wrong', { llmCalls: 4, cacheHits: 4, promptTokens: 0, cachedPromptTokens: 1000 }),
      record(3, 'not_executable', { llmCalls: 9, cacheHits: 0, promptTokens: 5000 }),
    ]);
    expect(row).toMatchObject({ key: 'hybrid_minus_selection', questions: 2, correct: 1, ex: 0.5, llmCallsPerQuestion: 4 });
    expect(row.inputTokensPerQuestion).toBe(1000); // (100 + 900 + 0 + 1000) / 2
    expect(row.cachedCallFraction).toBe(7 / 8);
    expect(row.promptTokensEvaluatedFraction).toBeCloseTo(0.6); // over the tokens actually sent to the model
    const lines = accuracyLines(row);
    expect(lines).toContain('input_tokens_per_question_hybrid_minus_selection: 1000');
    expect(lines).toContain('cached_call_fraction_hybrid_minus_selection: 0.875');
    expect(lines).toContain('ex_hybrid_minus_selection_easy: 1.000');
    // Final SQL that the database refused or stopped (the not_executable question is not scored at all).
    expect(lines).toContain('failing_sql_hybrid_minus_selection: 0');
    expect(accuracyLines(accuracyRow('quick', [record(1, 'pred_error', {}), record(2, 'pred_timeout', {}), record(3, 'wrong', {})]))).toContain(
      'failing_sql_quick: 2',
    );
    expect(accuracyMarkdown([row], 'about')).toMatch(/\| hybrid − selection \| 2 \| 0\.500 \|.*\| 1000 \| 4\.0 \| 0\.875 \|/);
  });

  it('prints what a CPU pays for: prompt tokens read, tokens generated, and decode passes after verified drafts', () => {
    const row = accuracyRow('quick', [
      record(1, 'correct', { promptTokens: 1000, reusedPromptTokens: 600, completionTokens: 80, draftedTokens: 30 }),
      record(2, 'wrong', { promptTokens: 500, completionTokens: 40 }),
    ]);
    const lines = accuracyLines(row);
    expect(lines).toContain('evaluated_prompt_tokens_per_question_quick: 450'); // (400 + 500) / 2
    expect(lines).toContain('generated_tokens_per_question_quick: 60');
    expect(lines).toContain('decode_passes_per_question_quick: 45'); // (50 + 40) / 2
  });

  it('says where wrong answers were lost: questions with a right candidate, and those of them whose answer is still wrong', () => {
    const withCandidate = (index: number, verdict: BenchmarkRecord['verdict'], upperBoundCorrect: boolean): BenchmarkRecord => ({
      ...record(index, verdict, {}),
      upperBoundCorrect,
    });
    const lines = accuracyLines(
      accuracyRow('hybrid', [
        withCandidate(1, 'correct', true),
        withCandidate(2, 'wrong', true), // a right candidate existed: selection lost it
        withCandidate(3, 'pred_error', true),
        withCandidate(4, 'wrong', false), // no right candidate to choose
        withCandidate(5, 'not_executable', true), // not scored
      ]),
    );
    expect(lines).toContain('right_candidate_hybrid: 3');
    expect(lines).toContain('lost_at_selection_hybrid: 2');
  });

  it('prints linking recall and the share of the database the focused schema kept, over the records that measured them', () => {
    const linked = (index: number, recall: number, keptFraction?: number): BenchmarkRecord => ({
      ...record(index, 'correct', {}),
      linking: { recall, precision: 1, goldColumns: 2, focusedColumns: 3, ...(keptFraction === undefined ? {} : { keptFraction }) } as never,
    });
    const lines = accuracyLines(accuracyRow('decosearch', [linked(1, 1, 0.2), linked(2, 0.5, 0.4), linked(3, 0.75), record(4, 'wrong', {})]));
    expect(lines).toContain('linking_recall_decosearch: 0.750');
    expect(lines).toContain('kept_fraction_decosearch: 0.300'); // record 3 was stored before kept fractions
    expect(accuracyLines(accuracyRow('quick', [record(1, 'correct', {})]))).toContain('kept_fraction_quick: n/a');
  });

  it("prints bench:speed's lines: the model's work, its calls, wall seconds and EX, one per line", () => {
    const row = accuracyRow('quick', [
      record(1, 'correct', {
        llmCalls: 1,
        promptTokens: 1000,
        reusedPromptTokens: 600,
        completionTokens: 80,
        draftedTokens: 30,
        byRole: { generator: { calls: 1, promptTokens: 1000, completionTokens: 80, reusedPromptTokens: 600, draftedTokens: 30 } },
      }),
      record(2, 'wrong', {
        llmCalls: 2,
        cacheHits: 1,
        promptTokens: 500,
        completionTokens: 40,
        byRole: { generator: { calls: 1, promptTokens: 0, completionTokens: 0 }, 'schema-linker': { calls: 1, promptTokens: 500, completionTokens: 40 } },
      }),
    ]);
    expect(speedLines(row)).toEqual([
      'questions_quick: 2',
      'ex_quick: 0.500',
      'evaluated_prompt_tokens_per_question_quick: 450',
      'generated_tokens_per_question_quick: 60',
      'decode_passes_per_question_quick: 45',
      'model_calls_per_question_quick: 1.5',
      'seconds_per_question_quick: 2.0',
      'cached_call_fraction_quick: 0.333',
      // Per role, over every scored question: which role the model's work went to.
      'model_calls_per_question_quick_generator: 1.0',
      'evaluated_prompt_tokens_per_question_quick_generator: 200',
      'decode_passes_per_question_quick_generator: 25',
      'model_calls_per_question_quick_schema_linker: 0.5',
      'evaluated_prompt_tokens_per_question_quick_schema_linker: 250',
      'decode_passes_per_question_quick_schema_linker: 20',
    ]);
  });

  it('counts model time, a cached answer at what it took when generated, and says n/a when an answer was cached without it', () => {
    const timed = [
      record(1, 'correct', { llmCalls: 2, cacheHits: 1, modelMs: 30_000, untimedHits: 0 }),
      record(2, 'wrong', { llmCalls: 2, cacheHits: 2, modelMs: 50_000, untimedHits: 0 }),
    ];
    const row = accuracyRow('hybrid', timed);
    expect(row.modelSecondsPerQuestion).toBe(40);
    expect(row.secondsPerQuestion).toBe(2); // the wall time of the replay
    expect(accuracyLines(row)).toContain('model_seconds_per_question_hybrid: 40.0');
    const untimed = accuracyRow('hybrid', [...timed, record(3, 'correct', { llmCalls: 1, cacheHits: 1, modelMs: 0, untimedHits: 1 })]);
    expect(untimed.modelSecondsPerQuestion).toBeNull();
    expect(accuracyLines(untimed)).toContain('model_seconds_per_question_hybrid: n/a');
  });

  it('reads records stored before cached tokens were counted', () => {
    const old = record(1, 'correct', { llmCalls: 2, cacheHits: 0, promptTokens: 300 });
    delete old.usage.cachedPromptTokens;
    delete old.usage.modelMs;
    expect(accuracyRow('quick', [old])).toMatchObject({ inputTokensPerQuestion: 300, cachedCallFraction: 0, modelSecondsPerQuestion: null });
  });
});
