import { stringHash32 } from '../string-hash';

/** A fixed, seeded sample: the same size, seed and question set always give the same questions. */
export interface SampleSpec {
  size: number;
  seed: number;
  /**
   * Which strata share out the size first (default `database`). A sample smaller than the number
   * of databases gives each database at most one question, its commonest difficulty, so 12 of
   * Spider dev's 20 databases gave 11 medium questions and 1 easy one; `difficulty` shares the size
   * over the difficulties first, then each difficulty's share over its databases.
   */
  first?: 'database' | 'difficulty';
}

/**
 * A sample stratified by database, then by difficulty within each database (or the other way round,
 * `spec.first`): each database gets its share of `size`, and each of its difficulties a share of
 * that, both rounded by largest remainder (ties to the larger group, then by name). A 100-question
 * sample of Spider dev thus holds every database and hardness in proportion. Within a stratum the
 * questions are ordered by a seeded hash of their id, a shuffle that depends neither on the
 * JavaScript engine nor on the input's order. The result keeps the dataset's order, so a sample
 * reads like its dataset.
 */
export function stratifiedSample<T extends { id: string; dbId: string; difficulty?: string }>(items: readonly T[], spec: SampleSpec): T[] {
  if (!Number.isInteger(spec.size) || spec.size < 1) throw new Error(`a sample's size must be a positive integer, got ${spec.size}`);
  if (!Number.isInteger(spec.seed)) throw new Error(`a sample's seed must be an integer, got ${spec.seed}`);
  if (spec.size >= items.length) return [...items];

  const database = (q: T) => q.dbId;
  const difficulty = (q: T) => q.difficulty ?? '';
  const [outer, inner] = spec.first === 'difficulty' ? [difficulty, database] : [database, difficulty];
  const chosen = new Set<T>();
  for (const [, inOuter] of allocate(groupBy(items, outer), spec.size)) {
    for (const [stratum, take] of allocate(groupBy(inOuter.members, inner), inOuter.take)) {
      const shuffled = [...stratum.members].sort((a, b) => stringHash32(a.id, spec.seed) - stringHash32(b.id, spec.seed) || (a.id < b.id ? -1 : 1));
      for (const item of shuffled.slice(0, take.take)) chosen.add(item);
    }
  }
  return items.filter((item) => chosen.has(item));
}

interface Group<T> {
  key: string;
  members: T[];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Group<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.entries()].map(([k, members]) => ({ key: k, members }));
}

/** `total` split over the groups in proportion to their sizes, by largest remainder. */
function allocate<T>(groups: Group<T>[], total: number): [Group<T>, { members: T[]; take: number }][] {
  const all = groups.reduce((n, g) => n + g.members.length, 0);
  const shares = groups.map((g) => {
    const exact = (g.members.length * total) / all;
    return { group: g, take: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = total - shares.reduce((n, s) => n + s.take, 0);
  const order = [...shares].sort(
    (a, b) => b.remainder - a.remainder || b.group.members.length - a.group.members.length || (a.group.key < b.group.key ? -1 : 1),
  );
  for (const share of order) {
    if (left === 0) break;
    share.take++;
    left--;
  }
  return shares.map((s) => [s.group, { members: s.group.members, take: s.take }]);
}
