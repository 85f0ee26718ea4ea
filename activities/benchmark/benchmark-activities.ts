import { ApplicationFailure } from '@temporalio/common';
import type { BenchmarkRecord, EvaluateAnswerInput, EvaluatedBrief, PreparedBenchmark, RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import { summarizeBenchmark, type BenchmarkSummary } from '../../core/benchmark/summarize-benchmark';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { emptyUsage, totalTokens } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { evaluateAnswer, type QuestionEvaluation } from '../evaluation/evaluate-answer';
import { benchmarkStore, type StoredQuestionSet } from './benchmark-store';
import { loadDataset } from './datasets/load-dataset';
import { markMissingServerDatabases } from './datasets/missing-server-databases';
import { writeBenchmarkReport, type ReportFiles } from './write-benchmark-report';

export interface BenchmarkDeps {
  databases: DatabaseRegistry;
  artifacts: ArtifactStore;
}

const fingerprintOf = (input: RunBenchmarkInput) =>
  JSON.stringify({
    dataset: input.dataset,
    datasetsRoot: input.datasetsRoot,
    databaseDir: input.databaseDir ?? null,
    limit: input.limit ?? null,
    // Only when given: question sets stored before sampling existed keep their fingerprint.
    ...(input.sample ? { sample: input.sample } : {}),
    evaluator: input.evaluation.evaluator,
  });

/**
 * The benchmark's side effects, on the `offline` queue: load and freeze the question set,
 * hand out unfinished questions, evaluate answers (executing gold and predicted SQL read-only)
 * and store each record, write the reports.
 */
export function createBenchmarkActivities(deps: BenchmarkDeps) {
  const store = benchmarkStore(deps.artifacts);
  const sets = new Map<string, StoredQuestionSet>();

  async function questionSet(benchmarkId: string): Promise<StoredQuestionSet> {
    let set = sets.get(benchmarkId) ?? (await store.questionSet(benchmarkId));
    if (!set) throw ApplicationFailure.nonRetryable(`benchmark ${benchmarkId} was never prepared`, 'BenchmarkNotPrepared');
    sets.set(benchmarkId, set);
    return set;
  }

  return {
    /** Loads the dataset once per benchmark id and records the questions that cannot run. */
    async prepareBenchmark(input: RunBenchmarkInput): Promise<PreparedBenchmark> {
      const fingerprint = fingerprintOf(input);
      let set = await store.questionSet(input.benchmarkId);
      if (set && set.fingerprint !== fingerprint) {
        throw ApplicationFailure.nonRetryable(
          `benchmark id ${input.benchmarkId} already holds another question set (${set.fingerprint}); choose another --id`,
          'BenchmarkIdTaken',
        );
      }
      if (!set) {
        let loaded;
        try {
          loaded = loadDataset({
            dataset: input.dataset,
            root: input.datasetsRoot,
            limit: input.limit,
            sample: input.sample,
            evaluator: input.evaluation.evaluator,
            databaseDir: input.databaseDir,
          });
        } catch (err) {
          throw ApplicationFailure.nonRetryable((err as Error).message, 'DatasetUnavailable');
        }
        await markMissingServerDatabases(loaded, (reference) => deps.databases.get(reference));
        const prepared: PreparedBenchmark = {
          total: loaded.questions.length,
          executable: loaded.questions.filter((q) => !q.notExecutable).length,
          dataset: loaded.name,
          evaluator: loaded.evaluator,
          missingDatabases: loaded.missingDatabases,
          notes: loaded.notes,
        };
        set = { fingerprint, prepared, questions: loaded.questions, schemas: loaded.schemas };
        await store.saveQuestionSet(input.benchmarkId, set);
      }
      sets.set(input.benchmarkId, set);
      // Read once: which questions are finished, and how many of them right (the progress a resumed run starts from).
      const records = await store.records(input.benchmarkId);
      const finished = new Set(records.map((r) => r.index));
      let done = records.length;
      for (const q of set.questions) {
        if (q.notExecutable && !finished.has(q.index)) {
          await store.saveRecord(input.benchmarkId, notExecutableRecord(q));
          done++;
        }
      }
      return { ...set.prepared, finished: { done, correct: records.filter((r) => r.verdict === 'correct').length } };
    },

    /** Up to `count` questions from index `from` on that have no record yet, and where the scan stopped. */
    async nextBenchmarkQuestions(input: { benchmarkId: string; from: number; count: number }): Promise<{ questions: BenchmarkQuestion[]; scannedTo: number }> {
      const set = await questionSet(input.benchmarkId);
      const finished = await store.finishedIndexes(input.benchmarkId);
      const questions: BenchmarkQuestion[] = [];
      let i = input.from;
      for (; i < set.questions.length && questions.length < input.count; i++) if (!finished.has(i)) questions.push(set.questions[i]);
      return { questions, scannedTo: i };
    },

    async evaluateBenchmarkAnswer(input: EvaluateAnswerInput): Promise<EvaluatedBrief> {
      const { question, prediction } = input;
      const evaluation = await evaluateAnswer(question, prediction, input.settings, (spec) => deps.databases.get(spec)).catch(
        // Recorded, not retried forever: one unreadable database must not stall the whole run.
        (err: unknown): QuestionEvaluation => ({
          verdict: 'evaluation_error',
          detail: (err as Error).message,
          upperBoundCorrect: false,
          candidatesEvaluated: 0,
        }),
      );
      const record: BenchmarkRecord = {
        index: question.index,
        id: question.id,
        dbId: question.dbId,
        ...(question.difficulty ? { difficulty: question.difficulty } : {}),
        question: question.question,
        ...(question.evidence ? { evidence: question.evidence } : {}),
        goldSql: question.goldSql,
        predictedSql: prediction.sql,
        outcome: prediction.outcome,
        route: prediction.route,
        usage: prediction.usage,
        latencyMs: prediction.latencyMs,
        ...(prediction.workflowId ? { workflowId: prediction.workflowId } : {}),
        ...(prediction.selection ? { selection: prediction.selection } : {}),
        ...evaluation,
      };
      await store.saveRecord(input.benchmarkId, record);
      return { index: question.index, verdict: record.verdict, tokens: totalTokens(record.usage) };
    },

    async writeBenchmarkReport(input: RunBenchmarkInput): Promise<{ summary: BenchmarkSummary; files: ReportFiles }> {
      const set = await questionSet(input.benchmarkId);
      const records = await store.records(input.benchmarkId);
      const summary = summarizeBenchmark(input, set.prepared, records);
      return { summary, files: writeBenchmarkReport(input.reportDir, summary, records) };
    },
  };
}

export type BenchmarkActivities = ReturnType<typeof createBenchmarkActivities>;

function notExecutableRecord(q: BenchmarkQuestion): BenchmarkRecord {
  return {
    index: q.index,
    id: q.id,
    dbId: q.dbId,
    ...(q.difficulty ? { difficulty: q.difficulty } : {}),
    question: q.question,
    goldSql: q.goldSql,
    predictedSql: null,
    outcome: 'not_asked',
    route: 'none',
    verdict: 'not_executable',
    detail: q.notExecutable,
    usage: emptyUsage(),
    latencyMs: null,
    upperBoundCorrect: false,
    candidatesEvaluated: 0,
  };
}
