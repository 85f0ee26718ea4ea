import { ApplicationFailure } from '@temporalio/common';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import type { CorrectionRule } from '../../core/knowledge/knowledge-types';
import { exampleExclusion } from '../../core/mining/example-exclusion';
import { SQL_DIFFERENCES, sqlDifferences } from '../../core/mining/sql-differences';
import type { CandidateMismatch, ErrorGroup, MinedQuestionRecord, MineRulesInput, MiningJobStatus } from '../../core/mining/mining-types';
import type { SqlRow } from '../../core/sql-value';
import { emptyUsage, mergeUsage } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { evaluateSpiderPair } from '../evaluation/evaluate-spider-pair';
import { executeForEvaluation } from '../evaluation/execute-for-evaluation';
import { loadFewShotManifest } from '../knowledge/few-shot-index';
import { publishCorrectionRules } from '../knowledge/knowledge-store';
import { keepAlive } from '../heartbeat/activity-heartbeat';
import { schemaHintOf, sharedSqlAnalyzer } from '../sql/shared-analyzer';
import { MINING_SAMPLES, miningStore } from './mining-store';
import { freezeTrainingSample, unfinishedQuestions } from '../training-sets/training-sample';

export interface MiningDeps {
  databases: DatabaseRegistry;
  artifacts: ArtifactStore;
}

const PREVIEW_ROWS = 5;
const PREVIEW_CHARS = 400;

/** A few result rows as prompt text (enough to show a truncated ratio or a missing row). */
function preview(rows: SqlRow[]): string {
  const text = JSON.stringify(rows.slice(0, PREVIEW_ROWS));
  return `${text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text} (${rows.length} rows)`;
}

/**
 * The rule creator's side effects on the `offline` queue: freeze the job's stratified sample,
 * hand out the questions not mined yet, compare a question's candidates with its gold SQL on the
 * training database (the benchmark's Spider semantics), store each question's record, list the
 * database-agnostic failures for clustering, and publish the rules.
 */
/** The query's shape against the gold query's; tables compared only when both parsed. */
function shapeDifferences(sql: string, gold: string, tables: string[] | null, goldTables: string[] | null): string[] {
  return sqlDifferences(sql, gold, tables && goldTables ? { candidate: tables, gold: goldTables } : null);
}

export function createMiningActivities(deps: MiningDeps) {
  const store = miningStore(deps.artifacts);

  async function findMismatches(input: {
    question: BenchmarkQuestion;
    candidates: { path: string; sql: string }[];
    timeoutMs: number;
  }): Promise<{ mismatches: CandidateMismatch[]; goldError?: string }> {
    const { question, timeoutMs } = input;
    const db = await deps.databases.get(question.database);
    const gold = await executeForEvaluation(db, question.goldSql, timeoutMs);
    // A gold query that fails here teaches nothing about the candidates: recorded, not compared.
    if (!gold.ok) return { mismatches: [], goldError: `${gold.kind}: ${gold.message}` };
    const analyzer = await sharedSqlAnalyzer();
    const hint = schemaHintOf(await db.schema());
    const tablesOf = (sql: string) => {
      const analysis = analyzer.analyze(sql, db.dialect, hint);
      return analysis.ok ? analysis.tables : null;
    };
    const goldTables = tablesOf(question.goldSql);
    const seen = new Set<string>();
    const mismatches: CandidateMismatch[] = [];
    for (const [candidate, c] of input.candidates.entries()) {
      if (seen.has(c.sql)) continue;
      seen.add(c.sql);
      const verdict = await evaluateSpiderPair([db], c.sql, question.goldSql, { timeoutMs });
      if (verdict.verdict === 'correct') continue;
      const executed = await executeForEvaluation(db, c.sql, timeoutMs);
      mismatches.push({
        candidate,
        path: c.path,
        sql: c.sql,
        verdict: verdict.verdict,
        ...(verdict.detail ? { detail: verdict.detail } : {}),
        goldRows: preview(gold.rows),
        candidateRows: executed.ok ? preview(executed.rows) : `error: ${executed.message}`,
        differences: shapeDifferences(c.sql, question.goldSql, tablesOf(c.sql), goldTables),
      });
    }
    return { mismatches };
  }

  return {
    /** Samples the job's questions once (later runs reuse them) and counts what earlier runs mined and spent. */
    async openMiningJob(input: MineRulesInput): Promise<MiningJobStatus> {
      const sample = await freezeTrainingSample(deps.artifacts, MINING_SAMPLES, input);
      const records = await store.records(input.jobId);
      const byDifficulty: Record<string, number> = {};
      for (const q of sample.questions) byDifficulty[q.difficulty ?? 'unknown'] = (byDifficulty[q.difficulty ?? 'unknown'] ?? 0) + 1;
      const explanations = records.flatMap((r) => r.explanations);
      return {
        total: sample.questions.length,
        done: records.length,
        failures: explanations.length,
        agnosticFailures: explanations.filter((e) => e.agnostic).length,
        usage: records.reduce((u, r) => mergeUsage(u, r.usage), emptyUsage()),
        byDifficulty,
        examples: exampleExclusion(input.dataset, (await loadFewShotManifest(deps.artifacts))?.sources),
      };
    },

    /** Up to `count` questions from index `from` on that have no record yet, and where the scan stopped. */
    async nextMiningQuestions(input: { jobId: string; from: number; count: number }): Promise<{ questions: BenchmarkQuestion[]; scannedTo: number }> {
      const sample = await store.sample(input.jobId);
      if (!sample) throw ApplicationFailure.nonRetryable(`mining job ${input.jobId} has no sample`, 'MiningJobMissing');
      return unfinishedQuestions(sample, await store.finishedIndexes(input.jobId), input.from, input.count);
    },

    /**
     * Step 1's comparison: each distinct candidate runs against the gold SQL on the training
     * database under Spider's execution semantics; the ones that disagree come back with a
     * preview of both results for the explainer.
     */
    findCandidateMismatches(input: {
      question: BenchmarkQuestion;
      candidates: { path: string; sql: string }[];
      timeoutMs: number;
    }): Promise<{ mismatches: CandidateMismatch[]; goldError?: string }> {
      return keepAlive(() => findMismatches(input));
    },

    /** Written last by a question's workflow: from now on the question counts as mined. */
    async saveMinedQuestion(input: { jobId: string; record: MinedQuestionRecord }): Promise<void> {
      await store.saveRecord(input.jobId, input.record);
    },

    /** Step 2's output, per training database (sorted), each in question order: the input of clustering. */
    async listAgnosticFailures(input: { jobId: string }): Promise<{ dbId: string; ids: string[] }[]> {
      const byDb = new Map<string, string[]>();
      for (const r of await store.records(input.jobId)) {
        const ids = r.explanations.filter((e) => e.agnostic).map((e) => e.id);
        if (ids.length) byDb.set(r.dbId, [...(byDb.get(r.dbId) ?? []), ...ids]);
      }
      return [...byDb.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([dbId, ids]) => ({ dbId, ids }));
    },

    /**
     * Step 3 by plain code (`clustering.method: sql-differences`): each database-agnostic failure
     * joins the group of the first way its query's shape differs from the gold query's
     * (SQL_DIFFERENCES order); failures of the gold query's shape join none. Groups in that order.
     */
    async groupFailuresBySqlDifference(input: { jobId: string }): Promise<{ groups: ErrorGroup[]; ungrouped: number }> {
      const members = new Map<string, string[]>();
      let ungrouped = 0;
      for (const r of await store.records(input.jobId))
        for (const e of r.explanations.filter((x) => x.agnostic)) {
          if (!e.differences)
            throw ApplicationFailure.nonRetryable(
              `mining job ${input.jobId}: question ${r.index} was mined before query shapes were recorded; mine again under a new job id to group by SQL differences`,
              'MiningRecordsTooOld',
            );
          const first = e.differences[0];
          if (first === undefined) ungrouped++;
          else members.set(first, [...(members.get(first) ?? []), e.id]);
        }
      const groups = SQL_DIFFERENCES.filter((d) => members.has(d)).map((d) => ({ label: `the query ${d}`, members: members.get(d)!, difference: d }));
      return { groups, ungrouped };
    },

    /** Step 4's output becomes the rules the online correction reads (a new version unless unchanged). */
    async publishMinedRules(input: { jobId: string; rules: CorrectionRule[] }): Promise<{ version: string; unchanged: boolean }> {
      return publishCorrectionRules(deps.artifacts, input.rules, { source: `mineRules ${input.jobId}` });
    },
  };
}

export type MiningActivities = ReturnType<typeof createMiningActivities>;
