import { unusableDecomposition } from '../../core/knowledge/decomposition-quality';
import { sharedSqlAnalyzer } from '../sql/shared-analyzer';
import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import type { BuildDecompositionKbInput, DecompositionRecord } from '../../core/knowledge/decomposition-kb-types';
import { emptyUsage, mergeUsage, type RunUsage } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { evaluateSpiderPair } from '../evaluation/evaluate-spider-pair';
import { freezeTrainingSample, unfinishedQuestions, type StoredSample } from '../training-sets/training-sample';
import type { Embedder } from '../embeddings/embedder';
import type { VectorStore } from '../vectors/vector-store';
import { storeDecompositionExamples } from './decomposition-examples';
import { decompositionRecords, recordedIndexes, saveDecompositionRecord, type StoredDecompositionRecord } from './decomposition-kb-records';

const SAMPLES = 'decomposition-kb-samples';

export interface DecompositionKbJobDeps {
  databases: DatabaseRegistry;
  artifacts: ArtifactStore;
  vectors: VectorStore;
  /** Embeds the stored questions (the one the decomposer searches with). */
  embedder: Embedder;
}

/** What a run of the job finds in the store when it starts. */
export interface DecompositionJobStatus {
  total: number;
  done: number;
  stored: number;
  wrong: number;
  withoutDag: number;
  unusable: number;
  usage: RunUsage;
}

/**
 * The decomposition knowledge base job's side effects on the `offline` queue: freeze the sample,
 * hand out unfinished questions, and judge each complex-route answer against the gold SQL
 * (Spider's execution semantics, as the benchmark does), storing the DAG of a correct one.
 */
/** Whether a text parses as a query; as SQLite, since a node written as a query in another dialect is rarely one SQLite cannot read. */
async function sqlReader(): Promise<(text: string) => boolean> {
  const analyzer = await sharedSqlAnalyzer();
  return (text) => analyzer.analyze(text, 'sqlite').ok;
}

export function createDecompositionKbActivities(deps: DecompositionKbJobDeps) {
  return {
    async openDecompositionJob(input: BuildDecompositionKbInput): Promise<DecompositionJobStatus> {
      const sample = await freezeTrainingSample(deps.artifacts, SAMPLES, input);
      const done = await decompositionRecords(deps.artifacts, input.jobId);
      return {
        total: sample.questions.length,
        done: done.length,
        stored: done.filter((r) => r.stored).length,
        wrong: done.filter((r) => r.hasDag && !r.stored && !r.unusable).length,
        withoutDag: done.filter((r) => !r.hasDag).length,
        unusable: done.filter((r) => r.unusable).length,
        usage: done.reduce((u, r) => mergeUsage(u, r.usage), emptyUsage()),
      };
    },

    async nextDecompositionQuestions(input: { jobId: string; from: number; count: number }): Promise<{ questions: BenchmarkQuestion[]; scannedTo: number }> {
      const sample = await deps.artifacts.get<StoredSample>(SAMPLES, input.jobId);
      if (!sample) throw new Error(`decomposition job ${input.jobId} has no sample`);
      return unfinishedQuestions(sample, await recordedIndexes(deps.artifacts, input.jobId), input.from, input.count);
    },

    /** Written last for a question: a correct answer's DAG becomes an example, and the question counts as done. */
    async recordDecomposition(input: {
      jobId: string;
      question: BenchmarkQuestion;
      answer: { sql: string | null; outcome: string; dag?: SubQuestionDag; usage: RunUsage };
      timeoutMs: number;
    }): Promise<DecompositionRecord> {
      const { question, answer } = input;
      let verdict = `no SQL (${answer.outcome})`;
      if (answer.sql !== null) {
        const databases = await Promise.all(
          (question.evaluationDatabases.length ? question.evaluationDatabases : [question.database]).map((d) => deps.databases.get(d)),
        );
        verdict = (await evaluateSpiderPair(databases, answer.sql, question.goldSql, { timeoutMs: input.timeoutMs })).verdict;
      }
      const unusable = verdict === 'correct' && answer.dag ? unusableDecomposition(answer.dag, await sqlReader()) : null;
      const stored = verdict === 'correct' && answer.dag !== undefined && unusable === null;
      if (stored)
        await storeDecompositionExamples({ store: deps.artifacts, vectors: deps.vectors, embedder: deps.embedder }, [
          { question: question.question, evidence: question.evidence, database: question.dbId, dag: answer.dag! },
        ]);
      const record: StoredDecompositionRecord = {
        index: question.index,
        dbId: question.dbId,
        question: question.question,
        verdict,
        stored,
        hasDag: answer.dag !== undefined,
        ...(unusable ? { unusable } : {}),
        tokens: answer.usage.promptTokens + answer.usage.completionTokens,
        llmCalls: answer.usage.llmCalls - answer.usage.cacheHits,
        usage: answer.usage,
      };
      await saveDecompositionRecord(deps.artifacts, input.jobId, record);
      const { usage: _usage, ...brief } = record;
      return brief;
    },
  };
}

export type DecompositionKbActivities = ReturnType<typeof createDecompositionKbActivities>;
