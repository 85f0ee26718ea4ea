import { sqlValueKey, type SqlValue } from '../sql-value';
import { stringHash32 } from '../string-hash';

/**
 * A random-looking but reproducible sample: the `k` values whose seeded hash is smallest
 * ("bottom-k"). Every value is equally likely to be picked, the same values always give the
 * same sample, and the order of the input does not matter, so re-profiling an unchanged
 * database yields an identical profile.
 */
export function seededSample(values: SqlValue[], k: number, seed = 0x5bd1e995): SqlValue[] {
  return values
    .map((value) => ({ value, rank: stringHash32(sqlValueKey(value), seed) }))
    .sort((a, b) => a.rank - b.rank || compareKeys(a.value, b.value))
    .slice(0, k)
    .map((x) => x.value);
}

function compareKeys(a: SqlValue, b: SqlValue): number {
  const x = sqlValueKey(a);
  const y = sqlValueKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
