import { seededGenerator } from '../profiling/seeded-sample';
import { stringHash32 } from '../string-hash';

/**
 * A reproducible sample that covers every difficulty (DexterSQL §3.1.4 Step 1): each stratum is
 * shuffled by a generator seeded from `seed` and the stratum's name, then strata are taken in
 * turn, one item at a time, so small strata are not drowned by large ones; a stratum that runs
 * out leaves its turns to the others. Returned in the original order of the items, so a sample of
 * n is the same questions however the dataset file is read, and the job processes them in a
 * stable order.
 */
export function stratifiedSample<T>(items: T[], stratumOf: (item: T) => string, size: number, seed: number): T[] {
  const strata = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = stratumOf(item);
    strata.set(key, [...(strata.get(key) ?? []), i]);
  });
  const shuffled = [...strata.keys()].sort().map((key) => {
    const next = seededGenerator(stringHash32(`sample ${seed} ${key}`));
    const order = [...strata.get(key)!];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  });
  const chosen: number[] = [];
  for (let round = 0; chosen.length < Math.min(size, items.length); round++) {
    for (const order of shuffled) if (round < order.length && chosen.length < size) chosen.push(order[round]);
  }
  return chosen.sort((a, b) => a - b).map((i) => items[i]);
}
