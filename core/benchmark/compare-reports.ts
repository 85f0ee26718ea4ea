import type { BenchmarkRecord } from './benchmark-types';
import type { BenchmarkSummary } from './summarize-benchmark';

export interface ComparableReport {
  summary: BenchmarkSummary;
  records: BenchmarkRecord[];
}

type Row = [string, (s: BenchmarkSummary) => number | null, number];

const percent = (x: number | null) => (x === null ? null : 100 * x);

/**
 * Reports side by side, one column each (and the difference when there are two): EX overall
 * and by difficulty, UB-EX, VES, tokens, calls, cost, latency; then, for two reports over the
 * same questions, which questions one got right and the other did not.
 */
export function renderComparisonMarkdown(reports: ComparableReport[]): string {
  const summaries = reports.map((r) => r.summary);
  const difficulties = [...new Set(summaries.flatMap((s) => s.byDifficulty.map((d) => d.difficulty)))];
  const rows: Row[] = [
    ['executable questions', (s) => s.executableQuestions, 0],
    ['EX (%)', (s) => percent(s.exExecutable), 2],
    ...difficulties.map((d): Row => [`EX ${d} (%)`, (s) => percent(s.byDifficulty.find((x) => x.difficulty === d)?.ex ?? null), 2]),
    ['UB-EX (%)', (s) => percent(s.ubEx), 2],
    ['VES', (s) => s.ves, 2],
    ['R-VES', (s) => s.rVes, 2],
    ['linking recall (%)', (s) => percent(s.linkingRecall), 2],
    ['tokens', (s) => s.tokens.total, 0],
    ['tokens per question', (s) => s.tokens.perQuestion, 1],
    ['LLM calls', (s) => s.llmCalls, 0],
    ['cost (USD)', (s) => s.costUsd, 4],
    ['latency p50 (s)', (s) => (s.latencyMs ? s.latencyMs.p50 / 1000 : null), 2],
    ['latency p90 (s)', (s) => (s.latencyMs ? s.latencyMs.p90 / 1000 : null), 2],
  ];
  const two = summaries.length === 2;
  const show = (x: number | null, digits: number) => (x === null ? 'n/a' : x.toFixed(digits));
  const lines = [
    `| metric | ${summaries.map((s) => `${s.label} (${s.dataset})`).join(' | ')}${two ? ' | Δ |' : ' |'}`,
    `|---|${summaries.map(() => '---:').join('|')}${two ? '|---:|' : '|'}`,
  ];
  for (const [name, get, digits] of rows) {
    const values = summaries.map(get);
    if (values.every((v) => v === null)) continue;
    const delta =
      two && values[0] !== null && values[1] !== null
        ? ` | ${(values[1]! - values[0]! >= 0 ? '+' : '') + show(values[1]! - values[0]!, digits)}`
        : two
          ? ' | n/a'
          : '';
    lines.push(`| ${name} | ${values.map((v) => show(v, digits)).join(' | ')}${delta} |`);
  }
  if (two) lines.push('', ...questionFlips(reports[0], reports[1]));
  return lines.join('\n') + '\n';
}

function questionFlips(a: ComparableReport, b: ComparableReport): string[] {
  const key = (r: BenchmarkRecord) => `${r.dbId}\u0000${r.question}`;
  const right = (rs: BenchmarkRecord[]) => new Map(rs.map((r) => [key(r), r.verdict === 'correct']));
  const ra = right(a.records);
  const rb = right(b.records);
  const shared = [...ra.keys()].filter((k) => rb.has(k));
  if (shared.length === 0) return ['The reports share no questions.'];
  const ids = (from: BenchmarkRecord[], keep: (k: string) => boolean) => from.filter((r) => keep(key(r))).map((r) => r.id);
  const onlyA = ids(a.records, (k) => rb.has(k) && ra.get(k)! && !rb.get(k)!);
  const onlyB = ids(b.records, (k) => ra.has(k) && rb.get(k)! && !ra.get(k)!);
  const list = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 30).join(', ')}${xs.length > 30 ? ', …' : ''}` : '');
  return [
    `${shared.length} questions in both reports.`,
    `- correct only in ${a.summary.label}: ${onlyA.length}${list(onlyA)}`,
    `- correct only in ${b.summary.label}: ${onlyB.length}${list(onlyB)}`,
  ];
}
