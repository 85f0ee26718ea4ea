import { createHash } from 'node:crypto';
import type { RunBenchmarkInput } from '../core/benchmark/benchmark-types';

/**
 * The id a benchmark runs under when --id is not given. Everything that changes the answers or
 * their scoring goes into it (dataset, limit, evaluator, preset, ablations, overrides, models, limits), so
 * the same command resumes the same run and a changed one starts its own.
 */
export function defaultBenchmarkId(input: Omit<RunBenchmarkInput, 'benchmarkId' | 'reportDir'>): string {
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
    models: input.roleModels ?? {},
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
