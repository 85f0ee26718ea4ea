import { DEFAULT_PRESET, pipelineLabel } from '../pipeline/pipeline-config';
import { rVesScore, vesScore } from '../evaluation/efficiency-scores';
import { VERDICTS, type Verdict } from '../evaluation/verdict';
import { addRoleUsage, totalTokens, type RunUsage } from '../usage';
import type { BenchmarkRecord, PreparedBenchmark, RunBenchmarkInput } from './benchmark-types';
import { estimateCost } from './cost';
import { percentile } from './percentiles';

export interface DifficultyRow {
  difficulty: string;
  questions: number;
  executable: number;
  correct: number;
  /** Correct over executable questions (0..1). */
  ex: number;
  ves: number | null;
  rVes: number | null;
}

export interface BenchmarkSummary {
  benchmarkId: string;
  label: string;
  dataset: string;
  evaluator: string;
  mode: 'predictions' | 'gold-as-prediction';
  preset: string | null;
  ablations: string[];
  questions: number;
  executableQuestions: number;
  notExecutable: number;
  correct: number;
  /** Fractions 0..1: over all questions, and over executable questions. */
  ex: number;
  exExecutable: number;
  /**
   * Executable questions whose gold query ran (no gold error or timeout), and EX over them: on
   * another engine than the dataset's (Spider on PostgreSQL) a gold query its dialect refuses
   * cannot be scored, and gold as prediction must score 1 on all the others.
   */
  goldRan: number;
  exWhereGoldRuns: number;
  verdicts: Record<Verdict, number>;
  byDifficulty: DifficultyRow[];
  /** UB-EX over executable questions: some candidate of the run was correct. */
  ubEx: number;
  /** Questions whose run reported more than its final SQL as candidates. */
  questionsWithCandidates: number;
  /** Over executable questions, in the papers' 0..100 scale; null when not measured. */
  ves: number | null;
  rVes: number | null;
  vesRepetitions: number;
  linkingRecall: number | null;
  linkingPrecision: number | null;
  linkingQuestions: number;
  tokens: { prompt: number; completion: number; total: number; perQuestion: number };
  llmCalls: number;
  cacheHits: number;
  byRole: RunUsage['byRole'];
  costUsd: number | null;
  latencyMs: { p50: number; p90: number; p99: number; max: number } | null;
  /** Gold queries that failed or timed out, results too large: listed, as the official script would report them. */
  problems: { index: number; id: string; verdict: Verdict; detail?: string }[];
  missingDatabases: PreparedBenchmark['missingDatabases'];
  notes: PreparedBenchmark['notes'];
}

/** Verdicts that say the question could not be scored fairly: listed in every report. */
const PROBLEM_VERDICTS: Verdict[] = ['gold_error', 'gold_timeout', 'too_large', 'evaluation_error'];
/** The gold query did not run: the question says nothing of the prediction. */
const GOLD_FAILED: Verdict[] = ['gold_error', 'gold_timeout'];

/** Papers' difficulty orders; any other labels follow alphabetically. */
const DIFFICULTY_ORDER = ['simple', 'moderate', 'challenging', 'easy', 'medium', 'hard', 'extra'];

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function summarizeBenchmark(input: RunBenchmarkInput, prepared: PreparedBenchmark, records: BenchmarkRecord[]): BenchmarkSummary {
  const executable = records.filter((r) => r.verdict !== 'not_executable');
  const correct = executable.filter((r) => r.verdict === 'correct').length;
  const goldRan = executable.filter((r) => !GOLD_FAILED.includes(r.verdict)).length;
  const vesMeasured = input.evaluation.vesRepetitions > 0;
  const efficiency = (rs: BenchmarkRecord[]) => ({
    ves: vesMeasured && rs.length ? vesScore(rs.map((r) => r.timeRatio ?? 0)) : null,
    rVes: vesMeasured && rs.length ? rVesScore(rs.map((r) => r.timeRatio ?? 0)) : null,
  });
  const usage = sumUsage(records.map((r) => r.usage));
  const linked = executable.flatMap((r) => (r.linking ? [r.linking] : []));
  const latencies = executable.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs]));
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of records) verdicts[r.verdict]++;

  return {
    benchmarkId: input.benchmarkId,
    label: benchmarkLabel(input),
    dataset: prepared.dataset,
    evaluator: prepared.evaluator,
    mode: input.goldAsPrediction ? 'gold-as-prediction' : 'predictions',
    preset: input.preset ?? null,
    ablations: input.ablations ?? [],
    questions: records.length,
    executableQuestions: executable.length,
    notExecutable: records.length - executable.length,
    correct,
    ex: records.length ? correct / records.length : 0,
    exExecutable: executable.length ? correct / executable.length : 0,
    goldRan,
    exWhereGoldRuns: goldRan ? correct / goldRan : 0,
    verdicts,
    byDifficulty: byDifficulty(records, efficiency),
    ubEx: executable.length ? executable.filter((r) => r.upperBoundCorrect).length / executable.length : 0,
    questionsWithCandidates: executable.filter((r) => r.candidatesEvaluated > 1).length,
    ...efficiency(executable),
    vesRepetitions: input.evaluation.vesRepetitions,
    linkingRecall: linked.length ? mean(linked.map((l) => l.recall)) : null,
    linkingPrecision: linked.length ? mean(linked.map((l) => l.precision)) : null,
    linkingQuestions: linked.length,
    tokens: {
      prompt: usage.promptTokens,
      completion: usage.completionTokens,
      total: totalTokens(usage),
      perQuestion: executable.length ? totalTokens(usage) / executable.length : 0,
    },
    llmCalls: usage.llmCalls,
    cacheHits: usage.cacheHits,
    byRole: usage.byRole,
    costUsd: input.prices ? estimateCost(usage, input.roleModels ?? {}, input.prices) : null,
    latencyMs: latencies.length
      ? { p50: percentile(latencies, 50)!, p90: percentile(latencies, 90)!, p99: percentile(latencies, 99)!, max: Math.max(...latencies) }
      : null,
    problems: records
      .filter((r) => PROBLEM_VERDICTS.includes(r.verdict))
      .map((r) => ({ index: r.index, id: r.id, verdict: r.verdict, ...(r.detail ? { detail: r.detail } : {}) })),
    missingDatabases: prepared.missingDatabases,
    notes: prepared.notes,
  };
}

export function benchmarkLabel(input: Pick<RunBenchmarkInput, 'label' | 'preset' | 'ablations' | 'pipeline' | 'goldAsPrediction'>): string {
  if (input.label) return input.label;
  if (input.goldAsPrediction) return 'gold';
  // What answerQuestion runs when no preset is given: the default preset, named as the runs name it.
  return pipelineLabel({ preset: input.preset ?? DEFAULT_PRESET, ablations: input.ablations ?? [], overrides: input.pipeline });
}

function byDifficulty(records: BenchmarkRecord[], efficiency: (rs: BenchmarkRecord[]) => { ves: number | null; rVes: number | null }): DifficultyRow[] {
  const groups = new Map<string, BenchmarkRecord[]>();
  for (const r of records) if (r.difficulty) groups.set(r.difficulty, [...(groups.get(r.difficulty) ?? []), r]);
  const rank = (d: string) => (DIFFICULTY_ORDER.includes(d) ? DIFFICULTY_ORDER.indexOf(d) : DIFFICULTY_ORDER.length);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([difficulty, rs]) => {
      const executable = rs.filter((r) => r.verdict !== 'not_executable');
      const correct = executable.filter((r) => r.verdict === 'correct').length;
      return {
        difficulty,
        questions: rs.length,
        executable: executable.length,
        correct,
        ex: executable.length ? correct / executable.length : 0,
        ...efficiency(executable),
      };
    });
}

function sumUsage(usages: RunUsage[]): RunUsage {
  const total: RunUsage = { llmCalls: 0, promptTokens: 0, completionTokens: 0, cacheHits: 0, byRole: {} };
  for (const u of usages) {
    total.llmCalls += u.llmCalls;
    total.promptTokens += u.promptTokens;
    total.completionTokens += u.completionTokens;
    total.cacheHits += u.cacheHits;
    for (const [role, r] of Object.entries(u.byRole)) total.byRole[role] = addRoleUsage(total.byRole[role], r);
  }
  return total;
}
