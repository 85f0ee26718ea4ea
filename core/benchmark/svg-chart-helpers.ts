/** Small helpers the benchmark charts share: axis steps, tick positions, labels. */

/** 1, 2 or 5 times a power of ten, at or above `x`. */
export function niceCeiling(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * power >= x) return m * power;
  return 10 * power;
}

export function ticks(max: number, step: number): number[] {
  const out: number[] = [];
  for (let t = 0; t <= max + step / 1e6; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

export function formatCount(n: number): string {
  if (n >= 1e6) return `${Number((n / 1e6).toPrecision(3))}M`;
  if (n >= 1e3) return `${Number((n / 1e3).toPrecision(3))}k`;
  return String(n);
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
