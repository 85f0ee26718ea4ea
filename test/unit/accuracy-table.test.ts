import { accuracyLines, accuracyMarkdown, accuracyRow, speedLines } from '../../core/benchmark/accuracy-table';
import type { BenchmarkRecord, CandidateVerdict } from '../../core/benchmark/benchmark-types';
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

  it('prints what a CPU pays for: prompt tokens read, tokens generated, and decode passes after verified drafts and batching', () => {
    const row = accuracyRow('quick', [
      record(1, 'correct', { promptTokens: 1000, reusedPromptTokens: 600, completionTokens: 80, draftedTokens: 30 }),
      record(2, 'wrong', { promptTokens: 500, completionTokens: 40 }),
    ]);
    const lines = accuracyLines(row);
    expect(lines).toContain('evaluated_prompt_tokens_per_question_quick: 450'); // (400 + 500) / 2
    expect(lines).toContain('generated_tokens_per_question_quick: 60');
    expect(lines).toContain('decode_passes_per_question_quick: 45'); // (50 + 40) / 2
    // Two generations decoded together share their passes: the batched share is not paid twice.
    const batched = accuracyRow('hybrid', [record(1, 'correct', { completionTokens: 100, batchedTokens: 40, draftedTokens: 10 })]);
    expect(accuracyLines(batched)).toContain('decode_passes_per_question_hybrid: 50');
    expect(accuracyLines(batched)).toContain('generated_tokens_per_question_hybrid: 100');
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

  it('says which stage lost each wrong answer and which path wrote the right candidates, when records kept candidate verdicts', () => {
    const run = (index: number, verdict: BenchmarkRecord['verdict'], candidates: CandidateVerdict[], selection?: string): BenchmarkRecord => ({
      ...record(index, verdict, {}),
      upperBoundCorrect: verdict === 'correct' || candidates.some((c) => c.verdict === 'correct'),
      candidates,
      ...(selection ? { selection } : {}),
    });
    const c = (path: string, verdict: CandidateVerdict['verdict'], generatedVerdict?: CandidateVerdict['verdict'], changedBy?: string[]): CandidateVerdict => ({
      path,
      sql: `SELECT '${path}'`,
      verdict,
      ...(generatedVerdict ? { generatedVerdict } : {}),
      ...(changedBy ? { changedBy } : {}),
    });
    const lines = accuracyLines(
      accuracyRow('hybrid', [
        run(1, 'correct', [c('direct', 'correct'), c('few-shot', 'wrong')], 'tournament'),
        run(2, 'correct', [c('direct', 'correct', 'pred_error', ['code fix', 'revision'])], 'single'), // correction won it
        run(3, 'wrong', [c('direct', 'wrong'), c('few-shot', 'correct', 'wrong', ['rules'])], 'confidence'), // selection lost it
        run(4, 'wrong', [c('direct', 'wrong', 'correct', ['rules']), c('few-shot', 'wrong', 'correct', ['rules'])], 'single'), // correction lost it
        run(5, 'pred_error', [c('direct', 'pred_error'), c('few-shot', 'wrong', 'pred_error')], 'first-executable'), // never right
        benchmarkRecord(6, 'wrong'), // stored before candidates were kept: not counted
        run(7, 'not_executable', [c('direct', 'correct')]), // not scored
      ]),
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        'candidates_recorded_hybrid: 5',
        'lost_at_generation_hybrid: 1',
        'lost_at_correction_hybrid: 1',
        'won_at_correction_hybrid: 2', // 2 and 3
        'lost_at_selection_hybrid_by_confidence: 1',
        'right_candidate_hybrid_direct: 2',
        'right_candidate_hybrid_few_shot: 1',
        // a kind of correction counts once a question, however many candidates it changed
        'turned_right_hybrid_by_code_fix: 1',
        'turned_right_hybrid_by_revision: 1',
        'turned_right_hybrid_by_rules: 1',
        'turned_wrong_hybrid_by_rules: 1',
      ]),
    );
    expect(lines.filter((l) => l.startsWith('turned_'))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('lost_at_selection_hybrid_by_'))).toHaveLength(1);
    expect(accuracyLines(accuracyRow('quick', [record(1, 'correct', {})])).some((l) => l.startsWith('candidates_recorded_'))).toBe(false);
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
