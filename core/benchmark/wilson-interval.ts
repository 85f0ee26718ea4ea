/**
 * The Wilson score interval of a proportion (95% by default): unlike the normal approximation it
 * stays inside [0, 1] and is honest for small samples and for proportions near 0 or 1, which is
 * what a 100-question accuracy sample gives.
 */
export function wilsonInterval(successes: number, trials: number, z = 1.959964): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
