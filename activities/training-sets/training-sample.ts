import { ApplicationFailure } from '@temporalio/common';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import type { TrainingSample } from '../../core/datasets/training-sample';
import { stratifiedSample } from '../../core/mining/stratified-sample';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { loadTrainingSet } from './training-questions';

/** A job's sample, frozen when the job first ran so every resume works on the same questions. */
export interface StoredSample {
  /** What produced it (dataset, size, seed, databases); another request under the same job id is refused. */
  fingerprint: string;
  questions: BenchmarkQuestion[];
  skippedMissingDatabase: number;
}

export interface SampleRequest {
  jobId: string;
  dataset: string;
  datasetsRoot: string;
  sample: TrainingSample;
}

/**
 * The stratified, seeded sample of training questions a long job works on (rule mining, the
 * decomposition knowledge base), drawn once and stored under `kind`/job id; later runs read it.
 */
export async function freezeTrainingSample(artifacts: ArtifactStore, kind: string, request: SampleRequest): Promise<StoredSample> {
  const fingerprint = JSON.stringify({
    dataset: request.dataset,
    root: request.datasetsRoot,
    size: request.sample.size,
    seed: request.sample.seed,
    databases: request.sample.databases ?? null,
  });
  const stored = await artifacts.get<StoredSample>(kind, request.jobId);
  if (stored && stored.fingerprint !== fingerprint)
    throw ApplicationFailure.nonRetryable(`job ${request.jobId} already holds another sample (${stored.fingerprint}); choose another job id`, 'JobIdTaken');
  if (stored) return stored;
  let loaded;
  try {
    loaded = loadTrainingSet(request.dataset, request.datasetsRoot);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'DatasetUnavailable');
  }
  const only = request.sample.databases ? new Set(request.sample.databases) : null;
  const pool = only ? loaded.questions.filter((q) => only.has(q.dbId)) : loaded.questions;
  const chosen = stratifiedSample(pool, (q) => q.difficulty ?? 'unknown', request.sample.size, request.sample.seed);
  const sample: StoredSample = { fingerprint, questions: chosen.map((q, index) => ({ ...q, index })), skippedMissingDatabase: loaded.skippedMissingDatabase };
  await artifacts.put(kind, request.jobId, sample);
  return sample;
}

/** Up to `count` questions of the sample from index `from` on that are not in `finished`, and where the scan stopped. */
export function unfinishedQuestions(
  sample: StoredSample,
  finished: Set<number>,
  from: number,
  count: number,
): { questions: BenchmarkQuestion[]; scannedTo: number } {
  const questions: BenchmarkQuestion[] = [];
  let i = from;
  for (; i < sample.questions.length && questions.length < count; i++) if (!finished.has(i)) questions.push(sample.questions[i]);
  return { questions, scannedTo: i };
}
