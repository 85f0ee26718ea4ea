import { batchByWork } from '../../core/preparation/work-batches';

describe('batchByWork', () => {
  const work = (n: number) => n;

  it('packs units in order until the next would pass the bound', () => {
    expect(batchByWork([3, 3, 3, 1, 5], work, 7)).toEqual([[3, 3], [3, 1], [5]]);
  });

  it('gives a unit larger than the bound a batch of its own, without an empty batch before it', () => {
    expect(batchByWork([20, 1, 1, 30], work, 10)).toEqual([[20], [1, 1], [30]]);
  });

  it('puts everything in one batch when it all fits, and nothing in none', () => {
    expect(batchByWork([1, 2, 3], work, 100)).toEqual([[1, 2, 3]]);
    expect(batchByWork([], work, 100)).toEqual([]);
  });

  it('counts units of no work (empty tables) without ever splitting on them alone', () => {
    expect(batchByWork([0, 0, 5, 0], work, 5)).toEqual([[0, 0, 5, 0]]);
  });

  it('rejects a bound that is not positive', () => {
    expect(() => batchByWork([1], work, 0)).toThrow(/positive/);
  });
});
