import { statSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import { FEW_SHOT_JOB_DEFAULTS, isExampleFile, type BuildFewShotIndexInput, type FewShotPageResult } from '../../core/knowledge/few-shot-job-types';
import { stringHash64Hex } from '../../core/string-hash';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { keepAlive } from '../heartbeat/activity-heartbeat';
import type { VectorStore } from '../vectors/vector-store';
import { fewShotCollection, fewShotEmbedderName, indexFewShotExamples, publishFewShotIndex } from './few-shot-index';
import { loadFewShotSource, type FewShotCandidate } from './few-shot-sources';
import { validateFewShotExamples } from './validate-few-shot-examples';

/**
 * The few-shot index job's side effects (offline queue): the examples are read from the sources
 * and paged into a collection named after their content and the embedder, so a rerun after a
 * crash writes the same points again (idempotent, no model calls) and a changed source set
 * builds a new collection that readers switch to only when it is complete. A page's examples
 * from a user's file are run on their database first, and only those whose SQL runs are written.
 */
export function createFewShotJobActivities(deps: { artifacts: ArtifactStore; vectors: VectorStore; databases: DatabaseRegistry }) {
  const loaded = new Map<string, { candidates: FewShotCandidate[]; collection: string }>();
  const examplesOf = (input: BuildFewShotIndexInput) => {
    // A user's file may be edited between two jobs on the same worker: its size and time are part of the key.
    const files = input.sources.filter(isExampleFile).map((f) => {
      const stat = statSync(f, { throwIfNoEntry: false });
      return stat ? [stat.size, stat.mtimeMs] : null;
    });
    const key = JSON.stringify([input.sources, input.datasetsRoot, files]);
    let examples = loaded.get(key);
    if (!examples) {
      let candidates: FewShotCandidate[];
      try {
        // Training sets repeat some pairs; one point each (point ids come from database, question and SQL).
        const unique = new Map(
          input.sources
            .flatMap((s) => loadFewShotSource(s, input.datasetsRoot))
            .map((c) => [`${c.example.database}\n${c.example.question}\n${c.example.sql}`, c]),
        );
        candidates = [...unique.values()];
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'DatasetUnavailable');
      }
      const version = stringHash64Hex(
        `${fewShotEmbedderName()}\n${candidates.map(({ example: e }) => `${e.database}\t${e.question}\t${e.sql}`).join('\n')}`,
      ).slice(0, 12);
      examples = { candidates, collection: fewShotCollection(version) };
      loaded.clear();
      loaded.set(key, examples);
    }
    return examples;
  };
  return {
    async openFewShotIndexJob(input: BuildFewShotIndexInput): Promise<{ total: number; collection: string }> {
      const { candidates, collection } = examplesOf(input);
      return { total: candidates.length, collection };
    },
    /** Runs the SQL of the page's file examples (each within the job's timeout, heartbeating), then writes those that ran. */
    indexFewShotPage(input: { job: BuildFewShotIndexInput; collection: string; from: number }): Promise<FewShotPageResult> {
      return keepAlive(async () => {
        const { candidates, collection } = examplesOf(input.job);
        // The pages must be the ones the job was opened on: an edited file would shift them.
        if (collection !== input.collection) {
          throw ApplicationFailure.nonRetryable(
            `the examples of ${input.job.sources.join(', ')} changed since the job started; run the command again to index them`,
            'DatasetUnavailable',
          );
        }
        const page = candidates.slice(input.from, input.from + input.job.pageSize);
        const { kept, files, rejections } = await validateFewShotExamples(deps.databases, page, input.job.sqlTimeoutMs ?? FEW_SHOT_JOB_DEFAULTS.sqlTimeoutMs);
        await indexFewShotExamples(deps.vectors, input.collection, kept);
        return { examples: page.length, files, rejections };
      });
    },
    async publishFewShotIndexJob(input: { job: BuildFewShotIndexInput; collection: string; total: number }): Promise<void> {
      await publishFewShotIndex(
        { store: deps.artifacts, vectors: deps.vectors },
        { collection: input.collection, count: input.total, embedder: fewShotEmbedderName(), builtAt: new Date().toISOString(), sources: input.job.sources },
      );
    },
  };
}

export type FewShotJobActivities = ReturnType<typeof createFewShotJobActivities>;
