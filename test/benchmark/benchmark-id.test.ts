import { defaultBenchmarkId } from '../../cli/benchmark-id';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { configuredAnswerSettings } from '../../cli/benchmark-models';
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

describe('the default benchmark id and the configured model settings', () => {
  it('is its own run when the SQL format, layout or sampling was configured, and unchanged when nothing was', () => {
    const nothing = configuredAnswerSettings(loadLlmConfig({}));
    expect(nothing).toEqual({});
    expect(defaultBenchmarkId(input, nothing)).toBe(defaultBenchmarkId(input));

    const fenced = configuredAnswerSettings(loadLlmConfig({ DECODEX_LLM_SQL_FORMAT: 'fenced' }));
    expect(fenced).toEqual({ '*': { sqlFormat: 'fenced' } });
    const generatorOnly = configuredAnswerSettings(loadLlmConfig({ DECODEX_LLM_GENERATOR_SQL_FORMAT: 'fenced', DECODEX_LLM_GENERATOR_TEMPERATURE: '0.3' }));
    expect(generatorOnly).toEqual({ generator: { sqlFormat: 'fenced', temperature: 0.3 } });
    const ids = [nothing, fenced, generatorOnly].map((settings) => defaultBenchmarkId(input, settings));
    expect(new Set(ids).size).toBe(3);
  });

  it('ignores the settings that do not change answers (endpoint, key, timeout)', () => {
    const config = loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DECODEX_LLM_MODEL: 'm', DECODEX_LLM_TIMEOUT_MS: '5000' });
    expect(configuredAnswerSettings(config)).toEqual({});
  });
});
