import type { BenchmarkSummary } from './summarize-benchmark';

/**
 * The run as `name: value` lines (one per line, fractions 0..1, `n/a` when not measured): what
 * `decodex bench` prints and scripts grep.
 */
export function summaryLines(s: BenchmarkSummary, files: Record<string, string> = {}): string[] {
  const fraction = (x: number | null) => (x === null ? 'n/a' : x.toFixed(4));
  const number = (x: number | null, digits = 2) => (x === null ? 'n/a' : x.toFixed(digits));
  const lines: [string, string | number][] = [
    ['benchmark_id', s.benchmarkId],
    ['label', s.label],
    ['dataset', s.dataset],
    ['evaluator', s.evaluator],
    ['mode', s.mode],
    ['questions', s.questions],
    ['executable_questions', s.executableQuestions],
    ['not_executable', s.notExecutable],
    ['correct', s.correct],
    ['ex', fraction(s.ex)],
    ['ex_executable', fraction(s.exExecutable)],
    ['ex_where_gold_runs', `${fraction(s.exWhereGoldRuns)} (${s.correct}/${s.goldRan})`],
    ...s.byDifficulty.map((d): [string, string] => [`ex_${d.difficulty}`, `${fraction(d.ex)} (${d.correct}/${d.executable})`]),
    ...Object.entries(s.verdicts).map(([v, n]): [string, number] => [`verdict_${v}`, n]),
    ['ub_ex', fraction(s.ubEx)],
    ['ves', number(s.ves)],
    ['r_ves', number(s.rVes)],
    ['linking_recall', fraction(s.linkingRecall)],
    ['linking_precision', fraction(s.linkingPrecision)],
    ['tokens_total', s.tokens.total],
    ['tokens_per_question', s.tokens.perQuestion.toFixed(1)],
    ['llm_calls', s.llmCalls],
    ['cache_hits', s.cacheHits],
    ['cost_usd', number(s.costUsd, 4)],
    ['latency_p50_ms', number(s.latencyMs?.p50 ?? null, 0)],
    ['latency_p90_ms', number(s.latencyMs?.p90 ?? null, 0)],
    ['latency_p99_ms', number(s.latencyMs?.p99 ?? null, 0)],
    ...s.missingDatabases.map((m): [string, string] => [`missing_database_${m.dbId}`, `${m.questions} questions`]),
    ...s.problems.map((p): [string, string] => [`problem_${p.id}`, `${p.verdict}${p.detail ? ` ${p.detail}` : ''}`]),
    ...Object.entries(s.notes).map(([k, v]): [string, string | number] => [k, v]),
    ...Object.entries(files),
  ];
  return lines.map(([name, value]) => `${name}: ${String(value).replace(/\s*\n\s*/g, ' ')}`);
}
