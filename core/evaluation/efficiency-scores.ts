/**
 * BIRD's efficiency metrics, as its scripts compute them.
 *
 * VES (bird-bench evaluation_ves.py): for a prediction whose result set equals the gold's, the
 * pair is timed `repetitions` times; each repetition gives gold_time / predicted_time; ratios
 * outside mean ± 3σ (population σ, strict bounds) are dropped and the rest averaged into the
 * question's time ratio. Any other question has ratio 0. VES = mean(sqrt(ratio)) × 100.
 *
 * R-VES (mini_dev evaluation_ves.py) maps the time ratio to a reward first:
 * ≥ 2 → 1.25, [1, 2) → 1, [0.5, 1) → 0.75, [0.25, 0.5) → 0.5, (0, 0.25) → 0.25, 0 → 0;
 * R-VES = mean(sqrt(reward)) × 100.
 */

/**
 * Ratios within mean ± 3σ. When every ratio is identical σ is 0 and the official strict test
 * keeps none (its mean then divides by zero and the question scores 0); none of them lies
 * outside the band, so all are kept here.
 */
export function withoutOutliers(ratios: number[]): number[] {
  if (ratios.length === 0) return [];
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const sigma = Math.sqrt(ratios.reduce((a, b) => a + (b - mean) ** 2, 0) / ratios.length);
  if (sigma === 0) return [...ratios];
  return ratios.filter((x) => x > mean - 3 * sigma && x < mean + 3 * sigma);
}

/** The time ratio of one question from its per-repetition gold/predicted ratios. */
export function timeRatio(ratios: number[]): number {
  const kept = withoutOutliers(ratios);
  return kept.length === 0 ? 0 : kept.reduce((a, b) => a + b, 0) / kept.length;
}

export function rVesReward(ratio: number): number {
  if (ratio === 0) return 0;
  if (ratio >= 2) return 1.25;
  if (ratio >= 1) return 1;
  if (ratio >= 0.5) return 0.75;
  if (ratio >= 0.25) return 0.5;
  return 0.25;
}

/** VES over questions: 0 for every question that was not correct. */
export function vesScore(timeRatios: number[]): number {
  return meanSqrtPercent(timeRatios);
}

export function rVesScore(timeRatios: number[]): number {
  return meanSqrtPercent(timeRatios.map(rVesReward));
}

function meanSqrtPercent(values: number[]): number {
  if (values.length === 0) return 0;
  return values.reduce((sum, v) => sum + Math.sqrt(v) * 100, 0) / values.length;
}
