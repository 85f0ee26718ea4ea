import type { CandidateVerdict, EvaluationSettings, PredictionForEvaluation } from '../../core/benchmark/benchmark-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { correctionKindsOf } from '../../core/correction/correction-kinds';
import { linkingScore, type LinkingScore } from '../../core/evaluation/schema-linking';
import type { PairVerdict } from '../../core/evaluation/verdict';
import { schemaHintOf, sharedSqlAnalyzer } from '../sql/shared-analyzer';
import type { TargetDatabase } from '../database/target-database';
import { evaluateBirdPair } from './evaluate-bird-pair';
import { evaluateSpiderPair } from './evaluate-spider-pair';
import { timePair } from './time-pair';

export interface QuestionEvaluation extends PairVerdict {
  upperBoundCorrect: boolean;
  candidatesEvaluated: number;
  candidates?: CandidateVerdict[];
  timeRatio?: number;
  linking?: LinkingScore | null;
}

export type OpenDatabase = (spec: string) => Promise<TargetDatabase>;

/**
 * Everything measured for one question: the EX verdict of the final SQL under the dataset's
 * official rule, UB-EX over the run's candidates, the VES time ratio of a correct answer, and
 * schema-linking recall when the run reported its focused schema.
 */
export async function evaluateAnswer(
  question: BenchmarkQuestion,
  prediction: PredictionForEvaluation,
  settings: EvaluationSettings,
  open: OpenDatabase,
): Promise<QuestionEvaluation> {
  if (question.notExecutable) return { verdict: 'not_executable', detail: question.notExecutable, upperBoundCorrect: false, candidatesEvaluated: 0 };
  const databases = await Promise.all(question.evaluationDatabases.map(open));
  const judgeOnce = (sql: string): Promise<PairVerdict> =>
    settings.evaluator === 'spider'
      ? evaluateSpiderPair(databases, sql, question.goldSql, { timeoutMs: settings.timeoutMs, keepDistinct: settings.keepDistinct })
      : evaluateBirdPair(databases[0], sql, question.goldSql, settings.timeoutMs);
  // Each distinct SQL is judged once: candidates often repeat one another and the final SQL.
  const verdicts = new Map<string, Promise<PairVerdict>>();
  const judge = (sql: string): Promise<PairVerdict> => {
    if (!verdicts.has(sql)) verdicts.set(sql, judgeOnce(sql));
    return verdicts.get(sql)!;
  };

  const final: PairVerdict =
    prediction.sql === null ? { verdict: 'no_prediction', detail: prediction.error ?? prediction.outcome } : await judge(prediction.sql);
  const candidates: CandidateVerdict[] = [];
  for (const c of prediction.candidates ?? []) {
    const verdict = (await judge(c.sql)).verdict;
    const generatedVerdict = c.generatedSql && c.generatedSql !== c.sql ? (await judge(c.generatedSql)).verdict : undefined;
    const changedBy = correctionKindsOf(c.corrections ?? []);
    candidates.push({ path: c.path, sql: c.sql, verdict, ...(generatedVerdict ? { generatedVerdict } : {}), ...(changedBy.length ? { changedBy } : {}) });
  }
  const upperBoundCorrect = final.verdict === 'correct' || candidates.some((c) => c.verdict === 'correct');
  const distinct = new Set([...(prediction.sql === null ? [] : [prediction.sql]), ...candidates.map((c) => c.sql)]);
  const result: QuestionEvaluation = {
    ...final,
    upperBoundCorrect,
    candidatesEvaluated: distinct.size,
    ...(prediction.candidates ? { candidates } : {}),
  };

  if (settings.vesRepetitions > 0) {
    result.timeRatio =
      final.verdict === 'correct'
        ? (await timePair(databases[0], prediction.sql!, question.goldSql, settings.vesRepetitions, settings.timeoutMs)).timeRatio
        : 0;
  }
  if (prediction.focusedSchema) result.linking = await goldLinking(question, databases[0], prediction.focusedSchema);
  return result;
}

/** Gold columns from the parsed gold SQL (the live schema decides unqualified names) vs. the focused schema. */
async function goldLinking(
  question: BenchmarkQuestion,
  db: TargetDatabase,
  focused: NonNullable<PredictionForEvaluation['focusedSchema']>,
): Promise<LinkingScore | null> {
  const schema = await db.schema();
  const analysis = (await sharedSqlAnalyzer()).analyze(question.goldSql, db.dialect, schemaHintOf(schema));
  const databaseColumns = schema.tables.reduce((n, t) => n + t.columns.length, 0);
  return analysis.ok ? linkingScore(analysis.columns, focused, databaseColumns) : null;
}
