import { stratifiedSample } from '../../core/benchmark/stratified-sample';

/** A made-up question set: 3 databases of different sizes, 4 difficulties unevenly spread. */
function questions() {
  const out: { id: string; dbId: string; difficulty: string }[] = [];
  const sizes: Record<string, number> = { shop: 120, school: 60, zoo: 20 };
  const levels = ['easy', 'easy', 'medium', 'medium', 'medium', 'hard', 'extra'];
  for (const [dbId, n] of Object.entries(sizes)) for (let i = 0; i < n; i++) out.push({ id: `${dbId}-${i}`, dbId, difficulty: levels[i % levels.length] });
  return out;
}

const count = <T>(items: T[], key: (t: T) => string) => items.reduce<Record<string, number>>((m, t) => ({ ...m, [key(t)]: (m[key(t)] ?? 0) + 1 }), {});

describe('stratifiedSample', () => {
  it('takes exactly the asked size, each database and difficulty in proportion', () => {
    const all = questions();
    const sample = stratifiedSample(all, { size: 50, seed: 1 });
    expect(sample).toHaveLength(50);
    expect(count(sample, (q) => q.dbId)).toEqual({ shop: 30, school: 15, zoo: 5 });
    const levels = count(sample, (q) => q.difficulty);
    const expected = count(all, (q) => q.difficulty);
    for (const level of Object.keys(expected)) expect(Math.abs(levels[level] - expected[level] / 4)).toBeLessThanOrEqual(2);
  });

  it('is the same for the same seed, different for another, and keeps the dataset order', () => {
    const all = questions();
    const a = stratifiedSample(all, { size: 40, seed: 7 });
    expect(stratifiedSample(all, { size: 40, seed: 7 })).toEqual(a);
    expect(stratifiedSample(all, { size: 40, seed: 8 }).map((q) => q.id)).not.toEqual(a.map((q) => q.id));
    const positions = a.map((q) => all.indexOf(q));
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  it('does not depend on the order of the input', () => {
    const all = questions();
    const reversed = [...all].reverse();
    const ids = (items: { id: string }[]) => items.map((q) => q.id).sort();
    expect(ids(stratifiedSample(reversed, { size: 33, seed: 3 }))).toEqual(ids(stratifiedSample(all, { size: 33, seed: 3 })));
  });

  it('returns everything when asked for more than there is, and refuses a size below 1', () => {
    expect(stratifiedSample(questions(), { size: 1000, seed: 1 })).toHaveLength(200);
    expect(() => stratifiedSample(questions(), { size: 0, seed: 1 })).toThrow(/positive integer/);
  });
});

describe('stratifiedSample, difficulty first', () => {
  it('keeps the difficulties in proportion when the sample is too small to give every database one', () => {
    const all = questions();
    // Database first, each database's one or two questions are of its commonest difficulties: no hard or extra one.
    expect(count(stratifiedSample(all, { size: 3, seed: 1 }), (q) => q.difficulty)).toEqual({ easy: 1, medium: 2 });
    const sample = stratifiedSample(all, { size: 7, seed: 1, first: 'difficulty' });
    expect(count(sample, (q) => q.difficulty)).toEqual({ easy: 2, medium: 3, hard: 1, extra: 1 });
    expect(Object.keys(count(sample, (q) => q.dbId)).length).toBeGreaterThan(1);
    expect(stratifiedSample(all, { size: 7, seed: 1, first: 'difficulty' })).toEqual(sample);
  });
});
