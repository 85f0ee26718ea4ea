import type { AccuracyRow } from './accuracy-table';
import { escapeXml, niceCeiling, ticks } from './svg-chart-helpers';

const WIDTH = 760;
const HEIGHT = 460;
const MARGIN = { left: 70, right: 230, top: 48, bottom: 60 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/**
 * EX against seconds per question, one point per configuration with its 95% interval as a
 * vertical bar: what a user trades for accuracy on this machine (bench:accuracy). A row's seconds
 * are its model time where known (what it costs without the cache, so a replayed row stands where
 * it ran), else its wall time; the legend says which.
 */
export function renderExSecondsChart(rows: AccuracyRow[], title = 'EX vs. seconds per question'): string {
  const seconds = (r: AccuracyRow) => r.modelSecondsPerQuestion ?? r.secondsPerQuestion;
  const xRaw = Math.max(1, ...rows.map(seconds));
  const xStep = niceCeiling(xRaw / 5);
  const xMax = Math.ceil((xRaw * 1.05) / xStep) * xStep;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => Number((MARGIN.left + (x / xMax) * plotW).toFixed(1));
  const sy = (y: number) => Number((MARGIN.top + plotH - (y / 100) * plotH).toFixed(1));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="26" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const t of ticks(xMax, xStep)) {
    parts.push(`<line x1="${sx(t)}" y1="${MARGIN.top}" x2="${sx(t)}" y2="${MARGIN.top + plotH}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${sx(t)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${t}</text>`);
  }
  for (const t of ticks(100, 20)) {
    parts.push(`<line x1="${MARGIN.left}" y1="${sy(t)}" x2="${MARGIN.left + plotW}" y2="${sy(t)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${sy(t) + 4}" text-anchor="end">${t}</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 18}" text-anchor="middle">seconds per question (mean; model time where known)</text>`);
  parts.push(`<text transform="translate(20 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">EX (%), with 95% Wilson interval</text>`);
  rows.forEach((r, n) => {
    const color = COLORS[n % COLORS.length];
    const x = sx(seconds(r));
    parts.push(`<line x1="${x}" y1="${sy(100 * r.exLow)}" x2="${x}" y2="${sy(100 * r.exHigh)}" stroke="${color}" stroke-width="2"/>`);
    parts.push(`<circle cx="${x}" cy="${sy(100 * r.ex)}" r="4.5" fill="${color}"/>`);
    const ly = MARGIN.top + 12 + n * 20;
    parts.push(`<circle cx="${MARGIN.left + plotW + 24}" cy="${ly}" r="4.5" fill="${color}"/>`);
    parts.push(
      `<text x="${MARGIN.left + plotW + 36}" y="${ly + 4}">${escapeXml(`${r.label} (${(100 * r.ex).toFixed(1)}%, ${seconds(r).toFixed(0)} s ${r.modelSecondsPerQuestion === null ? 'wall' : 'model'})`)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
