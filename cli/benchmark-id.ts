import { createHash } from 'node:crypto';
import type { RunBenchmarkInput } from '../core/benchmark/benchmark-types';
import { resolvePipelineConfig } from '../core/pipeline/pipeline-config';
import type { AnswerSettings } from './benchmark-models';

/**
 * The id a benchmark runs under when --id is not given. Everything that changes the answers or
 * their scoring goes into it (dataset, limit, evaluator, preset, ablations, overrides, models, limits), so
 * the same command resumes the same run and a changed one starts its own. That includes what the
 * preset resolves to: a decodex whose preset changed does not resume a run of the old one and mix
 * the two in one report (the model calls both make alike are cached, so the new run repeats little).
 * The same holds for the configured model settings that change answers (`answerSettings`, from
 * configuredAnswerSettings: an SQL format, a prompt layout, a temperature).
 */
export function defaultBenchmarkId(input: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'>, answerSettings: AnswerSettings = {}): string {
  const identity = {
    dataset: input.dataset,
    datasetsRoot: input.datasetsRoot,
    databaseDir: input.databaseDir ?? null,
    limit: input.limit ?? null,
    // Absent from ids made before sampling existed, so their runs still resume.
    ...(input.sample ? { sample: input.sample } : {}),
    evaluation: input.evaluation,
    gold: input.goldAsPrediction ?? false,
    preset: input.preset ?? null,
    ablations: input.ablations ?? [],
    // Only when given, so the ids of runs without overrides stay what they were.
    ...(input.pipeline ? { pipeline: input.pipeline } : {}),
    ...(input.goldAsPrediction ? {} : { resolved: resolvedSections(input) }),
    models: input.roleModels ?? {},
    // Only when some were set, so the ids of runs with the defaults stay what they were.
    ...(Object.keys(answerSettings).length ? { answerSettings } : {}),
    limits: input.questionLimits ?? null,
  };
  const hash = createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 10);
  const name = input.dataset
    .replace(/^.*[\\/]/, '')
    .replace(/\.jsonl$/, '')
    .replace(/[^A-Za-z0-9_-]/g, '_');
  const mode = input.goldAsPrediction ? 'gold' : (input.preset ?? 'default');
  return `bench-${name}-${mode}-${hash}`;
}

/** The configuration the run's questions are answered with, without the names that already say how it was asked for. */
function resolvedSections(input: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'>): unknown {
  const { preset: _preset, ablations: _ablations, overrides: _overrides, ...sections } = resolvePipelineConfig(input.preset, input.ablations, input.pipeline);
  return sections;
}
