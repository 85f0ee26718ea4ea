import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function norm(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}

describe('HashedEmbedder', () => {
  const embedder = new HashedEmbedder();
  const one = (text: string) => embedder.embedOne(text);

  it('has the default dimension, a versioned name, and one vector per text in order', async () => {
    expect(embedder.dimension).toBe(256);
    expect(embedder.name).toMatch(/^hashed-v\d+/);
    const vectors = await embedder.embed(['Alameda County', 'Fresno', 'Alameda County']);
    expect(vectors).toHaveLength(3);
    vectors.forEach((v) => expect(v).toBeInstanceOf(Float32Array));
    vectors.forEach((v) => expect(v).toHaveLength(256));
    expect(Array.from(vectors[0])).toEqual(Array.from(vectors[2]));
    expect(Array.from(vectors[0])).not.toEqual(Array.from(vectors[1]));
  });

  it('is deterministic across instances (no hidden state or randomness)', () => {
    const other = new HashedEmbedder();
    for (const text of ['Joe Sharp', 'Dürer', '2019-03-04', 'x']) {
      expect(Array.from(other.embedOne(text))).toEqual(Array.from(one(text)));
    }
  });

  it('returns unit vectors, and the zero vector only for text without characters', () => {
    for (const text of ['a', 'Alameda County', 'a much longer value with many many words in it', '%', '—']) {
      expect(norm(one(text))).toBeCloseTo(1, 5);
    }
    expect(norm(one(''))).toBe(0);
    expect(norm(one('   '))).toBe(0);
  });

  it('ignores case, accents, apostrophes and punctuation', () => {
    const same = (a: string, b: string) => expect(cosine(one(a), one(b))).toBeCloseTo(1, 5);
    same('Alameda County', 'ALAMEDA county');
    same('Café Rouge', 'cafe rouge');
    same("O'Brien", 'OBrien');
    same('New-York, N.Y.', 'new york n y');
  });

  it('scores spelling variants and shared words above unrelated values', () => {
    const base = one('Alameda County');
    const variant = cosine(base, one('alameda cnty'));
    const sharedWord = cosine(base, one('Fresno County'));
    const unrelated = cosine(base, one('Los Angeles Unified'));
    expect(variant).toBeGreaterThan(0.5);
    expect(variant).toBeGreaterThan(sharedWord);
    expect(sharedWord).toBeGreaterThan(unrelated + 0.2);
    expect(Math.abs(unrelated)).toBeLessThan(0.2);
    expect(cosine(one('Elementary School'), one('elementry schol'))).toBeGreaterThan(0.4);
    expect(Math.abs(cosine(one('apple'), one('banana')))).toBeLessThan(0.2);
  });

  it('honours a custom dimension and rejects a useless one', () => {
    expect(new HashedEmbedder({ dimension: 64 }).embedOne('abc')).toHaveLength(64);
    expect(() => new HashedEmbedder({ dimension: 0 })).toThrow(RangeError);
  });
});
