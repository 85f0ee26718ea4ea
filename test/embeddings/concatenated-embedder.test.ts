import { ConcatenatedEmbedder } from '../../activities/embeddings/concatenated-embedder';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { loadEmbedders } from '../../activities/embeddings/index-embedders';

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

  it('loads the models of its parts when asked (a worker at start), and so does loadEmbedders for both indices', async () => {
    const loaded: string[] = [];
    const withModel = (name: string) => Object.assign(new HashedEmbedder({ dimension: 8 }), { load: async () => void loaded.push(name) });
    const combined = new ConcatenatedEmbedder([
      { embedder: withModel('a'), weight: 1 },
      { embedder: new HashedEmbedder({ dimension: 8 }), weight: 1 },
      { embedder: withModel('b'), weight: 1 },
    ]);
    await combined.load();
    expect(loaded).toEqual(['a', 'b']);
    await loadEmbedders({ profiles: combined, profileText: 'sentences', values: withModel('values'), questions: withModel('questions') });
    expect(loaded).toEqual(['a', 'b', 'a', 'b', 'values', 'questions']);
  });

  it('refuses weights that cannot be shares', () => {
    expect(() => new ConcatenatedEmbedder([])).toThrow(RangeError);
    expect(() => new ConcatenatedEmbedder([{ embedder: new HashedEmbedder(), weight: 0 }])).toThrow(RangeError);
  });
});
