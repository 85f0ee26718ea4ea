import type { FailureExplanation, MinedQuestionRecord } from '../../core/mining/mining-types';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { StoredSample } from '../training-sets/training-sample';

/** Where mining samples are frozen (activities/training-sets/training-sample.ts). */
export const MINING_SAMPLES = 'mining-samples';
const RECORDS = 'mining-records';

/**
 * Rule-mining state in the artifact store: the sample, and one record per mined question keyed
 * `<job id>/<index>`. A record is written last, by the question's own workflow, so its presence
 * is what "this question is done" means: resumes and restarts never mine it again.
 */
export function miningStore(artifacts: ArtifactStore) {
  const recordKey = (jobId: string, index: number) => `${jobId}/${String(index).padStart(7, '0')}`;
  return {
    sample: (jobId: string) => artifacts.get<StoredSample>(MINING_SAMPLES, jobId),
    saveRecord: (jobId: string, record: MinedQuestionRecord) => artifacts.put(RECORDS, recordKey(jobId, record.index), record),
    record: (jobId: string, index: number) => artifacts.get<MinedQuestionRecord>(RECORDS, recordKey(jobId, index)),
    async finishedIndexes(jobId: string): Promise<Set<number>> {
      const keys = await artifacts.list(RECORDS, `${jobId}/`);
      return new Set(keys.map((k) => Number(k.slice(jobId.length + 1))));
    },
    async records(jobId: string): Promise<MinedQuestionRecord[]> {
      const keys = await artifacts.list(RECORDS, `${jobId}/`);
      const records = await Promise.all(keys.map((k) => artifacts.get<MinedQuestionRecord>(RECORDS, k)));
      return records.filter((r): r is MinedQuestionRecord => r !== undefined).sort((a, b) => a.index - b.index);
    },
    /** The explanations with these ids (`q<index>.c<k>.e<n>`), in the order asked. */
    async explanations(jobId: string, ids: string[]): Promise<FailureExplanation[]> {
      const byQuestion = new Map<number, MinedQuestionRecord | undefined>();
      const found: FailureExplanation[] = [];
      for (const id of ids) {
        const index = Number(/^q(\d+)\./.exec(id)?.[1]);
        if (!byQuestion.has(index)) byQuestion.set(index, await this.record(jobId, index));
        const explanation = byQuestion.get(index)?.explanations.find((e) => e.id === id);
        if (!explanation) throw new Error(`mining job ${jobId} has no failure explanation ${id}`);
        found.push(explanation);
      }
      return found;
    },
  };
}

export type MiningStore = ReturnType<typeof miningStore>;
