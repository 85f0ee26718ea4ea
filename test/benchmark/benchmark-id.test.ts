import { defaultBenchmarkId } from '../../cli/benchmark-id';
import { PRESETS } from '../../core/pipeline/pipeline-config';

const input = {
  dataset: 'spider-dev',
  datasetsRoot: '/data',
  sample: { size: 100, seed: 1 },
  evaluation: { evaluator: 'spider' as const, timeoutMs: 30_000, vesRepetitions: 0 },
  preset: 'hybrid',
  concurrency: 1,
};

describe('the default benchmark id', () => {
  it('is the same for the same command, so a run resumes', () => {
    expect(defaultBenchmarkId(input)).toBe(defaultBenchmarkId({ ...input }));
    expect(defaultBenchmarkId(input)).toMatch(/^bench-spider-dev-hybrid-[0-9a-f]{10}$/);
  });

  it('changes when the preset resolves to something else, so a changed decodex does not resume an old run', () => {
    const before = defaultBenchmarkId(input);
    const threshold = PRESETS.hybrid.selection.confidenceThreshold;
    try {
      PRESETS.hybrid.selection.confidenceThreshold = threshold / 2;
      expect(defaultBenchmarkId(input)).not.toBe(before);
    } finally {
      PRESETS.hybrid.selection.confidenceThreshold = threshold;
    }
    expect(defaultBenchmarkId(input)).toBe(before);
    expect(defaultBenchmarkId({ ...input, ablations: ['selection'] })).not.toBe(before);
  });
});
