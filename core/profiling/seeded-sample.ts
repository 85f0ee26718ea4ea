import { murmurFinalMix, stringHash32 } from '../string-hash';

/**
 * Which of a column's `distinctCount` distinct values (ranked 1..n in the database's order) its
 * profile samples: `k` distinct ranks drawn uniformly at random (Floyd's algorithm) from a
 * generator seeded by the column's name, so every distinct value is equally likely, whatever
 * its frequency or spelling, and re-profiling unchanged data gives the same sample. Returned
 * in draw order, so the sample does not read as an alphabetical list.
 */
export function seededRanks(distinctCount: number, k: number, seedText: string): number[] {
  if (distinctCount <= k) return Array.from({ length: distinctCount }, (_, i) => i + 1);
  const next = seededGenerator(stringHash32(seedText, 0x5bd1e995));
  const chosen = new Set<number>();
  const order: number[] = [];
  // Floyd: for j = n-k+1..n pick t in [1, j]; take t unless already taken, else take j.
  for (let j = distinctCount - k + 1; j <= distinctCount; j++) {
    const t = 1 + Math.floor(next() * j);
    const pick = chosen.has(t) ? j : t;
    chosen.add(pick);
    order.push(pick);
  }
  return order;
}

/** A small seeded generator of floats in [0, 1) (a counter through murmur's finaliser). */
export function seededGenerator(seed: number): () => number {
  let counter = seed;
  return () => {
    counter = (counter + 0x9e3779b9) >>> 0;
    return murmurFinalMix(counter) / 2 ** 32;
  };
}
