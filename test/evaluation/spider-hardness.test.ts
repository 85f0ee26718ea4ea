import { spiderHardness } from '../../core/evaluation/spider-hardness';
import { spiderDev } from '../../devkit/datasets';

describe('Spider hardness levels', () => {
  it('gives the published dev counts: easy 248, medium 446, hard 174, extra 166', () => {
    const counts: Record<string, number> = {};
    for (const q of spiderDev() as unknown as { sql: Parameters<typeof spiderHardness>[0] }[]) {
      const level = spiderHardness(q.sql);
      counts[level] = (counts[level] ?? 0) + 1;
    }
    expect(counts).toEqual({ easy: 248, medium: 446, hard: 174, extra: 166 });
  });
});
