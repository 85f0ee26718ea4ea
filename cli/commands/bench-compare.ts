import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderComparisonMarkdown, type ComparableReport } from '../../core/benchmark/compare-reports';
import { chartSeries, renderExTokensChart } from '../../core/benchmark/ex-tokens-chart';
import type { RuntimeConfig } from '../../core/runtime-config';
import { UsageError, type Command } from './command';

function readReport(arg: string): ComparableReport {
  const file = existsSync(arg) && statSync(arg).isDirectory() ? path.join(arg, 'report.json') : arg;
  if (!existsSync(file)) throw new UsageError(`no benchmark report at ${file}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as ComparableReport;
  if (!report.summary || !Array.isArray(report.records)) throw new Error(`${file} is not a decodex benchmark report (report.json)`);
  return report;
}

/** Reads two or more report.json files (or their folders) and puts them side by side. */
async function benchCompare(_config: RuntimeConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length < 2) throw new UsageError('bench-compare needs two or more reports (report.json files or their folders)');
  const reports = positionals.map(readReport);
  const markdown = renderComparisonMarkdown(reports);
  console.log(markdown);
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(path.join(values.out, 'comparison.md'), markdown);
    const chart = renderExTokensChart(reports.map((r) => chartSeries(r.summary.label, r.records)));
    writeFileSync(path.join(values.out, 'chart.svg'), chart);
    console.log(`comparison_markdown: ${path.join(values.out, 'comparison.md')}\nchart_svg: ${path.join(values.out, 'chart.svg')}`);
  }
  return 0;
}

export const benchCompareCommand: Command = {
  name: 'bench-compare',
  examples: ['npx decodex bench-compare .decodex/benchmarks/a .decodex/benchmarks/b --out compare/'],
  usage: 'bench-compare <report.json|dir> <report.json|dir>... [--out DIR]   side by side, one chart line each',
  run: benchCompare,
};
