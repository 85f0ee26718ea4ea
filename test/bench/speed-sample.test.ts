import { loadDataset } from '../../activities/benchmark/datasets/load-dataset';
import { SPEED_SAMPLE_SIZE, speedSample } from '../../bench/speed-sample';
import { DATASETS } from '../../devkit/datasets';

/** bench:speed compares runs on its sample: the sample must be the same questions every time, and worth timing. */
describe("bench:speed's fixed sample", () => {
  const questions = () => loadDataset({ dataset: 'spider-dev', root: DATASETS, sample: speedSample() }).questions;

  it('is the same 12 Spider dev questions every run, every one runnable', () => {
    const sample = questions();
    expect(SPEED_SAMPLE_SIZE).toBe(12);
    expect(sample.map((q) => q.id)).toEqual(['112', '116', '131', '184', '191', '314', '324', '581', '774', '779', '799', '998']);
    expect(questions()).toEqual(sample);
    expect(sample.filter((q) => q.notExecutable)).toEqual([]);
  });

  it("holds Spider dev's hardness in proportion, over several databases", () => {
    const count = (key: (q: ReturnType<typeof questions>[number]) => string) =>
      questions().reduce<Record<string, number>>((m, q) => ({ ...m, [key(q)]: (m[key(q)] ?? 0) + 1 }), {});
    expect(count((q) => q.difficulty ?? '')).toEqual({ easy: 3, medium: 5, hard: 2, extra: 2 });
    expect(Object.keys(count((q) => q.dbId))).toHaveLength(6);
  });
});
