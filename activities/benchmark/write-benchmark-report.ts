import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchmarkRecord } from '../../core/benchmark/benchmark-types';
import { chartSeries, renderExTokensChart } from '../../core/benchmark/ex-tokens-chart';
import type { BenchmarkSummary } from '../../core/benchmark/summarize-benchmark';
import { renderSummaryMarkdown } from '../../core/benchmark/summary-markdown';

export interface ReportFiles {
  report_json: string;
  summary_markdown: string;
  chart_svg: string;
}

/** The JSON every comparison reads: the summary and every question's record. */
export interface BenchmarkReport {
  summary: BenchmarkSummary;
  records: BenchmarkRecord[];
}

/** Writes report.json, summary.md and chart.svg into `dir` (created if needed). */
export function writeBenchmarkReport(dir: string, summary: BenchmarkSummary, records: BenchmarkRecord[]): ReportFiles {
  mkdirSync(dir, { recursive: true });
  const files: ReportFiles = {
    report_json: path.join(dir, 'report.json'),
    summary_markdown: path.join(dir, 'summary.md'),
    chart_svg: path.join(dir, 'chart.svg'),
  };
  const report: BenchmarkReport = { summary, records };
  writeFileSync(files.report_json, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(files.summary_markdown, renderSummaryMarkdown(summary));
  writeFileSync(files.chart_svg, renderExTokensChart([chartSeries(summary.label, records)], `Cumulative EX vs. cumulative tokens — ${summary.dataset}`));
  return files;
}
