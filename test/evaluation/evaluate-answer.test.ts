import { openTargetDatabase } from '../../activities/database/open-database';
import type { TargetDatabase } from '../../activities/database/target-database';
import { evaluateAnswer } from '../../activities/evaluation/evaluate-answer';
import type { EvaluationSettings, PredictionForEvaluation } from '../../core/benchmark/benchmark-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import { emptyUsage } from '../../core/usage';
import { spiderDatabasePath } from '../../devkit/datasets';

describe('evaluating one answer: EX, UB-EX over candidates, VES timing, linking recall', () => {
  const path = spiderDatabasePath('concert_singer');
  let db: TargetDatabase;
  beforeAll(async () => {
    db = await openTargetDatabase(path);
  });
  afterAll(() => db.close());

  const question: BenchmarkQuestion = {
    index: 0,
    id: '0',
    question: 'Names of singers from France?',
    goldSql: "SELECT T1.name FROM singer AS T1 WHERE T1.country = 'France'",
    dbId: 'concert_singer',
    database: path,
    evaluationDatabases: [path],
  };
  const prediction = (sql: string | null, extra: Partial<PredictionForEvaluation> = {}): PredictionForEvaluation => ({
    sql,
    outcome: sql ? 'answered' : 'llm_error',
    route: 'direct',
    usage: emptyUsage(),
    latencyMs: 10,
    ...extra,
  });
  const bird: EvaluationSettings = { evaluator: 'bird', timeoutMs: 30_000, vesRepetitions: 0 };
  const open = async () => db;

  it('counts a question for UB-EX when any candidate is right, even if the final SQL is wrong', async () => {
    const wrongFinal = prediction('SELECT name FROM singer', {
      candidates: [
        { path: 'direct', generatedSql: 'SELECT name FROM singer', sql: 'SELECT name FROM singer' },
        { path: 'few-shot', generatedSql: 'SELECT name FROM singer WHERE country = "France"', sql: 'SELECT name FROM singer WHERE country = "France"' },
      ],
    });
    expect(await evaluateAnswer(question, wrongFinal, bird, open)).toMatchObject({ verdict: 'wrong', upperBoundCorrect: true, candidatesEvaluated: 2 });
    expect(await evaluateAnswer(question, prediction('SELECT name FROM singer'), bird, open)).toMatchObject({
      verdict: 'wrong',
      upperBoundCorrect: false,
      candidatesEvaluated: 1,
    });
    expect(await evaluateAnswer(question, prediction(null, { error: 'auth: bad key' }), bird, open)).toMatchObject({
      verdict: 'no_prediction',
      detail: 'auth: bad key',
    });
  });

  it("judges each candidate as generated and as corrected, so a report can tell correction's losses from selection's", async () => {
    const right = "SELECT name FROM singer WHERE country = 'France'";
    const result = await evaluateAnswer(
      question,
      prediction('SELECT name FROM singer', {
        selection: 'confidence',
        candidates: [
          { path: 'direct', generatedSql: right, sql: 'SELECT name FROM singer', corrections: ['revision 1: no finding', 'rules r1'] }, // correction turned it wrong
          {
            path: 'few-shot',
            generatedSql: 'SELECT nam FROM singer',
            sql: 'SELECT name FROM singer',
            corrections: ['code fix: nam → name', 'code fix: again'],
          }, // fixed to run, still wrong
          { path: 'divide-and-conquer', generatedSql: right, sql: right }, // unchanged
        ],
      }),
      bird,
      open,
    );
    expect(result.candidates).toEqual([
      { path: 'direct', sql: 'SELECT name FROM singer', verdict: 'wrong', generatedVerdict: 'correct', changedBy: ['revision', 'rules'] },
      { path: 'few-shot', sql: 'SELECT name FROM singer', verdict: 'wrong', generatedVerdict: 'pred_error', changedBy: ['code fix'] },
      { path: 'divide-and-conquer', sql: right, verdict: 'correct' },
    ]);
    expect(result).toMatchObject({ verdict: 'wrong', upperBoundCorrect: true, candidatesEvaluated: 2 });
    // A run that reported no candidates gets none in its record (records stored before they were kept look the same).
    expect((await evaluateAnswer(question, prediction(right), bird, open)).candidates).toBeUndefined();
  });

  it('times a correct pair for VES (ratio > 0), gives 0 to a wrong one', async () => {
    const settings = { ...bird, vesRepetitions: 5 };
    const correct = await evaluateAnswer(question, prediction("SELECT name FROM singer WHERE country = 'France'"), settings, open);
    expect(correct.verdict).toBe('correct');
    expect(correct.timeRatio).toBeGreaterThan(0);
    const wrong = await evaluateAnswer(question, prediction('SELECT name FROM singer'), settings, open);
    expect(wrong.timeRatio).toBe(0);
  });

  it('measures schema-linking recall and precision against the gold columns when a focused schema is reported', async () => {
    const focused = prediction("SELECT name FROM singer WHERE country = 'France'", {
      focusedSchema: [
        { table: 'singer', columns: ['Name', 'Country', 'Age'] },
        { table: 'stadium', columns: ['Name'] },
      ],
    });
    const result = await evaluateAnswer(question, focused, bird, open);
    const databaseColumns = (await db.schema()).tables.reduce((n, t) => n + t.columns.length, 0);
    expect(databaseColumns).toBeGreaterThan(4);
    expect(result.linking).toEqual({ recall: 1, precision: 0.5, goldColumns: 2, focusedColumns: 4, keptFraction: 4 / databaseColumns });
    const missing = await evaluateAnswer(question, { ...focused, focusedSchema: [{ table: 'singer', columns: ['Name'] }] }, bird, open);
    expect(missing.linking).toMatchObject({ recall: 0.5, precision: 1 });
    expect((await evaluateAnswer(question, prediction('SELECT 1'), bird, open)).linking).toBeUndefined();
  });

  it('does not execute anything for a question whose database is missing', async () => {
    const gone = { ...question, notExecutable: 'database file /gone.sqlite is missing', evaluationDatabases: [] };
    expect(await evaluateAnswer(gone, prediction('SELECT 1'), bird, () => Promise.reject(new Error('must not open')))).toMatchObject({
      verdict: 'not_executable',
    });
  });
});
