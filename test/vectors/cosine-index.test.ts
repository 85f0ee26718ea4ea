import { CosineIndex } from '../../activities/vectors/cosine-index';
import { seededRandom } from './vector-store.contract';

/** Normalised copy, as the stores hand vectors to the index. */
function unit(values: number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(values, (x) => x / norm);
}

function naive(vectors: Float32Array[], query: Float32Array, k: number, keep: (i: number) => boolean) {
  return vectors
    .map((v, i) => ({ i, score: v.reduce((s, x, d) => s + x * query[d], 0) }))
    .filter(({ i }) => keep(i))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, k)
    .map(({ i }) => `p${i}`);
}

describe('CosineIndex', () => {
  // 9,000 rows fill the growing blocks (64 .. 4096 rows) and spill into fixed ones.
  const dimension = 32;
  const random = seededRandom(11);
  const vectors = Array.from({ length: 9000 }, (_, i) =>
    unit(Array.from({ length: dimension }, (_, d) => (random() < 0.2 || d === i % dimension ? random() * 2 - 1 || 0.1 : 0))),
  );
  const index = new CosineIndex(dimension);
  vectors.forEach((v, i) => index.put(`p${i}`, v, { bucket: i % 1000 === 0 ? 'rare' : i % 2 === 0 ? 'even' : 'odd' }));

  it('holds every row once', () => {
    expect(index.size).toBe(9000);
  });

  it('matches a naive ranking for sparse and dense queries, unfiltered and filtered', () => {
    const bucketOf = (i: number) => (i % 1000 === 0 ? 'rare' : i % 2 === 0 ? 'even' : 'odd');
    const queries = [
      unit(Array.from({ length: dimension }, (_, d) => (d % 7 === 0 ? 1 : 0))), // sparse
      unit(Array.from({ length: dimension }, () => random() * 2 - 1)), // dense
    ];
    for (const query of queries) {
      expect(index.search(query, 10).map((h) => h.id)).toEqual(naive(vectors, query, 10, () => true));
      // 'even' takes the block-by-columns path, 'rare' (9 rows) the row-by-row path.
      for (const bucket of ['even', 'rare']) {
        const got = index.search(query, 10, { bucket }).map((h) => h.id);
        expect(got).toEqual(naive(vectors, query, 10, (i) => bucketOf(i) === bucket));
      }
    }
  });

  it('replaces a row in place when its id is put again', () => {
    const target = unit(Array.from({ length: dimension }, (_, d) => (d === 3 ? 1 : d === 4 ? -1 : 0)));
    index.put('p4500', target, { bucket: 'moved' });
    expect(index.size).toBe(9000);
    const [hit] = index.search(target, 1);
    expect(hit).toEqual({ id: 'p4500', score: expect.closeTo(1, 5), payload: { bucket: 'moved' } });
  });
});
