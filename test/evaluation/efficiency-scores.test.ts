import { rVesReward, rVesScore, timeRatio, vesScore, withoutOutliers } from '../../core/evaluation/efficiency-scores';

describe('VES and R-VES', () => {
  it('drops ratios outside mean ± 3σ (population σ) before averaging', () => {
    const ratios = [...Array(20).fill(1), 100];
    expect(withoutOutliers(ratios)).toEqual(Array(20).fill(1));
    expect(timeRatio(ratios)).toBe(1);
    expect(timeRatio([1, 2, 3])).toBe(2);
  });

  it('keeps identical ratios (σ = 0) instead of dividing by zero', () => {
    expect(timeRatio([1.5, 1.5, 1.5])).toBe(1.5);
  });

  it('VES is the mean of sqrt(ratio) × 100, wrong answers counting 0', () => {
    expect(vesScore([4, 1, 0, 0])).toBeCloseTo((200 + 100) / 4, 10);
    expect(vesScore([])).toBe(0);
  });

  it('R-VES maps the ratio to a reward at the official thresholds', () => {
    expect([2, 1.99, 1, 0.99, 0.5, 0.49, 0.25, 0.24, 0.0001, 0].map(rVesReward)).toEqual([1.25, 1, 1, 0.75, 0.75, 0.5, 0.5, 0.25, 0.25, 0]);
    expect(rVesScore([2, 1, 0])).toBeCloseTo((Math.sqrt(1.25) * 100 + 100) / 3, 10);
  });
});
