import type { BenchmarkSummary } from './summarize-benchmark';

const pct = (x: number | null) => (x === null ? 'n/a' : (100 * x).toFixed(2));
const score = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));

/**
 * The run as a paper would table it: count, EX (and VES / R-VES when measured) by difficulty
 * and in total, then cost, tokens, latency and every question that could not be scored.
 */
export function renderSummaryMarkdown(s: BenchmarkSummary): string {
  const lines: string[] = [];
  lines.push(`# ${s.label} on ${s.dataset}`, '');
  lines.push(`Evaluator: \`${s.evaluator}\` (official semantics), mode: ${s.mode}, benchmark id \`${s.benchmarkId}\`.`, '');

  const head = [...s.byDifficulty.map((d) => d.difficulty), 'total'];
  const row = (name: string, cells: string[]) => `| ${name} | ${cells.join(' | ')} |`;
  lines.push(
    row('', head),
    row(
      '---',
      head.map(() => '---:'),
    ),
  );
  lines.push(row('count', [...s.byDifficulty.map((d) => String(d.executable)), String(s.executableQuestions)]));
  lines.push(row('EX (%)', [...s.byDifficulty.map((d) => pct(d.ex)), pct(s.exExecutable)]));
  if (s.ves !== null) {
    lines.push(row('VES', [...s.byDifficulty.map((d) => score(d.ves)), score(s.ves)]));
    lines.push(row('R-VES', [...s.byDifficulty.map((d) => score(d.rVes)), score(s.rVes)]));
  }
  lines.push('', 'Counts are executable questions (database present); EX is over them.', '');

  lines.push('| metric | value |', '|---|---:|');
  const metric = (name: string, value: string) => lines.push(`| ${name} | ${value} |`);
  metric('questions', String(s.questions));
  metric('executable questions', String(s.executableQuestions));
  metric('EX over all questions (%)', pct(s.ex));
  metric('EX over executable questions (%)', pct(s.exExecutable));
  metric('EX where the gold query runs (%)', `${pct(s.exWhereGoldRuns)} (${s.correct} of ${s.goldRan})`);
  metric('UB-EX (%)', `${pct(s.ubEx)}${s.questionsWithCandidates === 0 ? ' (final SQL only: no run reported candidates)' : ''}`);
  metric(
    'schema-linking recall (%)',
    s.linkingRecall === null ? 'n/a (no run reported a focused schema)' : `${pct(s.linkingRecall)} over ${s.linkingQuestions} questions`,
  );
  metric('schema-linking precision (%)', pct(s.linkingPrecision));
  metric('tokens (prompt + completion)', `${s.tokens.total} (${s.tokens.prompt} + ${s.tokens.completion})`);
  metric('tokens per question', s.tokens.perQuestion.toFixed(1));
  metric('LLM calls (cache hits)', `${s.llmCalls} (${s.cacheHits})`);
  metric('estimated cost (USD)', s.costUsd === null ? 'n/a' : s.costUsd.toFixed(4));
  metric(
    'latency p50 / p90 / p99 / max (s)',
    s.latencyMs ? [s.latencyMs.p50, s.latencyMs.p90, s.latencyMs.p99, s.latencyMs.max].map((ms) => (ms / 1000).toFixed(2)).join(' / ') : 'n/a',
  );
  lines.push('');

  const roles = Object.entries(s.byRole);
  if (roles.length) {
    lines.push('| role | calls | prompt tokens | completion tokens |', '|---|---:|---:|---:|');
    for (const [role, r] of roles) lines.push(`| ${role} | ${r.calls} | ${r.promptTokens} | ${r.completionTokens} |`);
    lines.push('');
  }

  lines.push('| verdict | questions |', '|---|---:|');
  for (const [verdict, n] of Object.entries(s.verdicts)) if (n > 0) lines.push(`| ${verdict} | ${n} |`);
  lines.push('');

  if (s.missingDatabases.length) {
    lines.push('Not executable (database file missing):', '');
    for (const m of s.missingDatabases) lines.push(`- \`${m.dbId}\`: ${m.questions} questions (${m.path})`);
    lines.push('');
  }
  if (s.problems.length) {
    lines.push('Gold queries that could not be scored (they count as wrong, as in the official script):', '');
    for (const p of s.problems) lines.push(`- question ${p.id} (#${p.index}): ${p.verdict}${p.detail ? ` — ${p.detail}` : ''}`);
    lines.push('');
  }
  return lines.join('\n');
}
