import { ConcatenatedEmbedder } from '../../activities/embeddings/concatenated-embedder';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('the concatenated embedder', () => {
  it('ranks by the weighted sum of its parts’ cosines, each part reading the text its own way', async () => {
    const plain = new HashedEmbedder({ dimension: 64 });
    const upper = new HashedEmbedder({ dimension: 128, ngram: 4 });
    const combined = new ConcatenatedEmbedder([
      { embedder: plain, weight: 3 },
      { embedder: upper, weight: 1, text: (t) => `${t} extra` },
    ]);
    expect(combined.dimension).toBe(192);
    expect(combined.name).toBe(`${plain.name}@0.75+${upper.name}@0.25`);

    const [a, b] = await combined.embed(['Alameda County', 'alameda cnty']);
    const [pa, pb] = await plain.embed(['Alameda County', 'alameda cnty']);
    const [ua, ub] = await upper.embed(['Alameda County extra', 'alameda cnty extra']);
    expect(dot(a, b)).toBeCloseTo(0.75 * dot(pa, pb) + 0.25 * dot(ua, ub), 5);
    expect(dot(a, a)).toBeCloseTo(1, 5);
  });

  it('refuses weights that cannot be shares', () => {
    expect(() => new ConcatenatedEmbedder([])).toThrow(RangeError);
    expect(() => new ConcatenatedEmbedder([{ embedder: new HashedEmbedder(), weight: 0 }])).toThrow(RangeError);
  });
});
