import type { BenchmarkRecord, PreparedBenchmark, RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import { renderComparisonMarkdown } from '../../core/benchmark/compare-reports';
import { estimateCost } from '../../core/benchmark/cost';
import { chartSeries, renderExTokensChart } from '../../core/benchmark/ex-tokens-chart';
import { percentile } from '../../core/benchmark/percentiles';
import { summarizeBenchmark } from '../../core/benchmark/summarize-benchmark';
import { summaryLines } from '../../core/benchmark/summary-lines';
import { renderSummaryMarkdown } from '../../core/benchmark/summary-markdown';
import type { Verdict } from '../../core/evaluation/verdict';
import { addCall, emptyUsage } from '../../core/usage';
import { benchmarkRecord } from '../../devkit/benchmark-record';

const input: RunBenchmarkInput = {
  benchmarkId: 'bench-test',
  dataset: 'bird-dev',
  datasetsRoot: '/data',
  evaluation: { evaluator: 'bird', timeoutMs: 30_000, vesRepetitions: 100 },
  preset: 'dexter',
  concurrency: 2,
  reportDir: '/tmp/x',
  roleModels: { generator: 'model-a', judger: 'model-b' },
  prices: { 'model-a': { inputPerMillion: 1, outputPerMillion: 2 }, 'model-b': { inputPerMillion: 10, outputPerMillion: 20 } },
};
const prepared: PreparedBenchmark = {
  total: 5,
  executable: 4,
  dataset: 'bird-dev',
  evaluator: 'bird',
  missingDatabases: [{ dbId: 'gone', path: '/gone.sqlite', questions: 1 }],
  notes: {},
};

function record(index: number, verdict: Verdict, difficulty: string, tokens: number, extra: Partial<BenchmarkRecord> = {}): BenchmarkRecord {
  const usage = tokens
    ? addCall(emptyUsage(), { role: 'generator', model: 'model-a', promptTokens: tokens, completionTokens: 10, latencyMs: 5, cacheHit: false })
    : emptyUsage();
  return benchmarkRecord(index, verdict, { difficulty, usage, timeRatio: verdict === 'correct' ? 4 : 0, ...extra });
}

const records = [
  record(0, 'correct', 'simple', 90),
  record(1, 'wrong', 'simple', 190, { upperBoundCorrect: true, candidatesEvaluated: 3 }),
  record(2, 'correct', 'moderate', 290),
  record(3, 'gold_timeout', 'challenging', 390, { detail: 'stopped at the 30000 ms timeout' }),
  record(4, 'not_executable', 'simple', 0, { latencyMs: null }),
];

describe('benchmark summaries and reports', () => {
  const summary = summarizeBenchmark(input, prepared, records);

  it('scores EX over executable questions, by difficulty, with UB-EX, VES and R-VES', () => {
    expect(summary).toMatchObject({
      questions: 5,
      executableQuestions: 4,
      notExecutable: 1,
      correct: 2,
      ex: 0.4,
      exExecutable: 0.5,
      // The gold timeout says nothing of the prediction: left out of this one.
      goldRan: 3,
      exWhereGoldRuns: 2 / 3,
      ubEx: 0.75,
      questionsWithCandidates: 1,
    });
    expect(summary.byDifficulty.map((d) => [d.difficulty, d.executable, d.correct, d.ex])).toEqual([
      ['simple', 2, 1, 0.5],
      ['moderate', 1, 1, 1],
      ['challenging', 1, 0, 0],
    ]);
    expect(summary.ves).toBeCloseTo((200 + 200) / 4, 10);
    expect(summary.rVes).toBeCloseTo((2 * Math.sqrt(1.25) * 100) / 4, 10);
    expect(summary.problems).toEqual([{ index: 3, id: 'q3', verdict: 'gold_timeout', detail: 'stopped at the 30000 ms timeout' }]);
    expect(summary.verdicts.correct).toBe(2);
  });

  it('sums tokens by role, estimates cost from the price table, gives latency percentiles', () => {
    expect(summary.tokens).toEqual({ prompt: 960, completion: 40, total: 1000, perQuestion: 250 });
    expect(summary.byRole.generator).toEqual({ calls: 4, promptTokens: 960, completionTokens: 40 });
    expect(summary.costUsd).toBeCloseTo((960 * 1 + 40 * 2) / 1e6, 12);
    expect(summary.latencyMs).toEqual({ p50: 2000, p90: 4000, p99: 4000, max: 4000 });
    expect(percentile([5, 1, 3], 50)).toBe(3);
    const judged = addCall(emptyUsage(), { role: 'judger', model: 'x', promptTokens: 1000, completionTokens: 0, latencyMs: 1, cacheHit: false });
    expect(estimateCost(judged, { judger: 'model-c' }, input.prices!)).toBeNull();
  });

  it('prints name: value lines with fractions, and a paper-style Markdown table', () => {
    const lines = summaryLines(summary, { report_json: '/tmp/x/report.json' });
    expect(lines).toEqual(
      expect.arrayContaining([
        'executable_questions: 4',
        'ex_executable: 0.5000',
        'ex_where_gold_runs: 0.6667 (2/3)',
        'ex_simple: 0.5000 (1/2)',
        'ves: 100.00',
        'report_json: /tmp/x/report.json',
      ]),
    );
    for (const line of lines) expect(line).toMatch(/^[a-z0-9_]+: \S/);
    const markdown = renderSummaryMarkdown(summary);
    expect(markdown).toContain('|  | simple | moderate | challenging | total |');
    expect(markdown).toContain('| EX (%) | 50.00 | 100.00 | 0.00 | 50.00 |');
    expect(markdown).toContain('| R-VES |');
    expect(markdown).toMatch(/`gone`: 1 questions/);
    expect(markdown).toMatch(/question q3 \(#3\): gold_timeout/);
  });

  it('charts cumulative EX against cumulative tokens, one line per run, ending at (tokens, EX)', () => {
    const series = chartSeries('dexter', records);
    expect(series.points[series.points.length - 1]).toEqual({ tokens: 1000, ex: 50 });
    expect(series.points.map((p) => p.ex)).toEqual([0, 25, 25, 50, 50]);
    const svg = renderExTokensChart([series, chartSeries('dexter − judger', records.slice(0, 2))]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('dexter − judger (50.0%)');
    expect(svg).toContain('cumulative tokens');
  });

  it('compares two reports side by side with the differences and the questions that flipped', () => {
    const other = records.map((r) => (r.index === 1 ? { ...r, verdict: 'correct' as const } : r.index === 0 ? { ...r, verdict: 'wrong' as const } : r));
    const markdown = renderComparisonMarkdown([
      { summary, records },
      { summary: summarizeBenchmark({ ...input, preset: 'deco' }, prepared, other), records: other },
    ]);
    expect(markdown).toContain('| EX (%) | 50.00 | 50.00 | +0.00 |');
    expect(markdown).toContain('- correct only in dexter: 1: q0');
    expect(markdown).toContain('- correct only in deco: 1: q1');
  });
});
