import { totalTokens } from '../usage';
import type { BenchmarkRecord } from './benchmark-types';
import { escapeXml, formatCount, niceCeiling, ticks } from './svg-chart-helpers';

/**
 * Cumulative execution accuracy against cumulative tokens, one line per preset or ablation, in
 * the manner of DecoSearch's Figure 3: question by question (dataset order), x is the tokens
 * spent so far and y the share of executable questions answered correctly so far, so each line
 * ends at (total tokens, EX). A run that spent no tokens (gold-as-prediction, cached) is drawn
 * against the number of questions instead.
 */
export interface ChartSeries {
  label: string;
  points: { tokens: number; ex: number }[];
}

export function chartSeries(label: string, records: BenchmarkRecord[]): ChartSeries {
  const ordered = [...records].filter((r) => r.verdict !== 'not_executable').sort((a, b) => a.index - b.index);
  const points = [{ tokens: 0, ex: 0 }];
  let tokens = 0;
  let correct = 0;
  for (const r of ordered) {
    tokens += totalTokens(r.usage);
    if (r.verdict === 'correct') correct++;
    points.push({ tokens, ex: (100 * correct) / ordered.length });
  }
  return { label, points };
}

const WIDTH = 760;
const HEIGHT = 460;
const MARGIN = { left: 70, right: 200, top: 48, bottom: 60 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const MAX_POINTS = 1500;

export function renderExTokensChart(series: ChartSeries[], title = 'Cumulative EX vs. cumulative tokens'): string {
  const byQuestion = series.every((s) => s.points[s.points.length - 1].tokens === 0);
  const xOf = (p: { tokens: number }, i: number) => (byQuestion ? i : p.tokens);
  const xRaw = Math.max(1, ...series.map((s) => xOf(s.points[s.points.length - 1], s.points.length - 1)));
  const xStep = niceCeiling(xRaw / 5);
  const xMax = Math.ceil(xRaw / xStep) * xStep;
  const yMax = 100;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => Number((MARGIN.left + (x / xMax) * plotW).toFixed(1));
  const sy = (y: number) => Number((MARGIN.top + plotH - (y / yMax) * plotH).toFixed(1));

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="26" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`);
  for (const t of ticks(xMax, xStep)) {
    parts.push(`<line x1="${sx(t)}" y1="${MARGIN.top}" x2="${sx(t)}" y2="${MARGIN.top + plotH}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${sx(t)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${formatCount(t)}</text>`);
  }
  for (const t of ticks(yMax, 20)) {
    parts.push(`<line x1="${MARGIN.left}" y1="${sy(t)}" x2="${MARGIN.left + plotW}" y2="${sy(t)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${sy(t) + 4}" text-anchor="end">${t}</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  const xLabel = byQuestion ? 'questions evaluated (no LLM tokens spent)' : 'cumulative tokens (prompt + completion)';
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 18}" text-anchor="middle">${xLabel}</text>`);
  parts.push(`<text transform="translate(20 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">cumulative EX (% of executable questions)</text>`);

  series.forEach((s, n) => {
    const color = COLORS[n % COLORS.length];
    const step = Math.max(1, Math.ceil(s.points.length / MAX_POINTS));
    const kept = s.points.map((p, i) => ({ x: xOf(p, i), y: p.ex })).filter((_, i) => i % step === 0 || i === s.points.length - 1);
    const path = kept.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${path}"/>`);
    const last = kept[kept.length - 1];
    parts.push(`<circle cx="${sx(last.x)}" cy="${sy(last.y)}" r="3.5" fill="${color}"/>`);
    const ly = MARGIN.top + 12 + n * 20;
    parts.push(`<line x1="${MARGIN.left + plotW + 14}" y1="${ly}" x2="${MARGIN.left + plotW + 38}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    parts.push(`<text x="${MARGIN.left + plotW + 44}" y="${ly + 4}">${escapeXml(`${s.label} (${last.y.toFixed(1)}%)`)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
