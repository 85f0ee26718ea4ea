import type { BenchmarkRecord, PreparedBenchmark } from '../../core/benchmark/benchmark-types';
import type { BenchmarkQuestion, DatasetSchema } from '../../core/datasets/benchmark-question';
import type { ArtifactStore } from '../artifacts/artifact-store';

/** The questions of one benchmark id, frozen when it first ran so a resumed run asks the same ones. */
export interface StoredQuestionSet {
  /** What produced the set (dataset, limit, evaluator, folders); another request under the same id is refused. */
  fingerprint: string;
  prepared: PreparedBenchmark;
  questions: BenchmarkQuestion[];
  schemas: Record<string, DatasetSchema>;
}

const QUESTIONS = 'benchmark-questions';
const RECORDS = 'benchmark-records';

/**
 * Benchmark state in the artifact store. One record per evaluated question, keyed
 * `<benchmark id>/<index>`: a rerun under the same id lists them and asks only the others.
 */
export function benchmarkStore(artifacts: ArtifactStore) {
  const recordKey = (benchmarkId: string, index: number) => `${benchmarkId}/${String(index).padStart(7, '0')}`;
  return {
    questionSet: (benchmarkId: string) => artifacts.get<StoredQuestionSet>(QUESTIONS, benchmarkId),
    saveQuestionSet: (benchmarkId: string, set: StoredQuestionSet) => artifacts.put(QUESTIONS, benchmarkId, set),
    saveRecord: (benchmarkId: string, record: BenchmarkRecord) => artifacts.put(RECORDS, recordKey(benchmarkId, record.index), record),
    async finishedIndexes(benchmarkId: string): Promise<Set<number>> {
      const keys = await artifacts.list(RECORDS, `${benchmarkId}/`);
      return new Set(keys.map((k) => Number(k.slice(benchmarkId.length + 1))));
    },
    async records(benchmarkId: string): Promise<BenchmarkRecord[]> {
      const keys = await artifacts.list(RECORDS, `${benchmarkId}/`);
      const records = await Promise.all(keys.map((k) => artifacts.get<BenchmarkRecord>(RECORDS, k)));
      return records.filter((r): r is BenchmarkRecord => r !== undefined).sort((a, b) => a.index - b.index);
    },
  };
}

export type BenchmarkStore = ReturnType<typeof benchmarkStore>;
