import { ApplicationFailure } from '@temporalio/common';
import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import type { BuildFewShotIndexInput } from '../../core/knowledge/few-shot-job-types';
import { stringHash64Hex } from '../../core/string-hash';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { VectorStore } from '../vectors/vector-store';
import { fewShotCollection, fewShotEmbedderName, indexFewShotExamples, publishFewShotIndex } from './few-shot-index';
import { loadFewShotSource } from './few-shot-sources';

/**
 * The few-shot index job's side effects (offline queue): the examples are read from the sources
 * and paged into a collection named after their content and the embedder, so a rerun after a
 * crash writes the same points again (idempotent, no model calls) and a changed source set
 * builds a new collection that readers switch to only when it is complete.
 */
export function createFewShotJobActivities(deps: { artifacts: ArtifactStore; vectors: VectorStore }) {
  const loaded = new Map<string, FewShotExample[]>();
  const examplesOf = (input: BuildFewShotIndexInput): FewShotExample[] => {
    const key = JSON.stringify([input.sources, input.datasetsRoot]);
    let examples = loaded.get(key);
    if (!examples) {
      try {
        // Training sets repeat some pairs; one point each (point ids come from database, question and SQL).
        const unique = new Map(
          input.sources.flatMap((s) => loadFewShotSource(s, input.datasetsRoot)).map((e) => [`${e.database}\n${e.question}\n${e.sql}`, e]),
        );
        examples = [...unique.values()];
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'DatasetUnavailable');
      }
      loaded.clear();
      loaded.set(key, examples);
    }
    return examples;
  };
  return {
    async openFewShotIndexJob(input: BuildFewShotIndexInput): Promise<{ total: number; collection: string }> {
      const examples = examplesOf(input);
      const version = stringHash64Hex(`${fewShotEmbedderName()}\n${examples.map((e) => `${e.database}\t${e.question}\t${e.sql}`).join('\n')}`).slice(0, 12);
      return { total: examples.length, collection: fewShotCollection(version) };
    },
    async indexFewShotPage(input: { job: BuildFewShotIndexInput; collection: string; from: number }): Promise<number> {
      const page = examplesOf(input.job).slice(input.from, input.from + input.job.pageSize);
      await indexFewShotExamples(deps.vectors, input.collection, page);
      return page.length;
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
