import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openTargetDatabase } from '../../activities/database/open-database';
import type { TargetDatabase } from '../../activities/database/target-database';
import { evaluateBirdPair } from '../../activities/evaluation/evaluate-bird-pair';
import { evaluateSpiderPair } from '../../activities/evaluation/evaluate-spider-pair';
import { executeForEvaluation } from '../../activities/evaluation/execute-for-evaluation';
import { spiderDatabasePath } from '../../devkit/datasets';

/**
 * Every rule of the two official evaluators, pinned with real result sets of Spider databases
 * executed by the read-only executor: each case gives gold and predicted SQL and the verdict
 * Spider (test-suite-sql-eval) and BIRD (evaluation.py) give the pair.
 */
describe('evaluator rules on real Spider result sets', () => {
  let singers: TargetDatabase;
  let world: TargetDatabase;
  const TIMEOUT = 30_000;

  beforeAll(async () => {
    singers = await openTargetDatabase(spiderDatabasePath('concert_singer'));
    world = await openTargetDatabase(spiderDatabasePath('world_1'));
  });
  afterAll(async () => {
    await singers?.close();
    await world?.close();
  });

  const judge = async (db: () => TargetDatabase, gold: string, predicted: string) => ({
    spider: (await evaluateSpiderPair([db()], predicted, gold, { timeoutMs: TIMEOUT })).verdict,
    bird: (await evaluateBirdPair(db(), predicted, gold, TIMEOUT)).verdict,
  });

  it.each([
    ['identical queries', 'SELECT name, age FROM singer', 'SELECT name, age FROM singer', 'correct', 'correct'],
    ['reordered rows, gold without ORDER BY', 'SELECT name FROM singer', 'SELECT name FROM singer ORDER BY name DESC', 'correct', 'correct'],
    [
      'reordered rows, gold with ORDER BY: order counts for Spider only',
      'SELECT name FROM singer ORDER BY age',
      'SELECT name FROM singer ORDER BY age DESC',
      'wrong',
      'correct',
    ],
    [
      'ORDER BY dropped from a sorted gold',
      'SELECT name, country, age FROM singer ORDER BY age DESC',
      'SELECT name, country, age FROM singer',
      'wrong',
      'correct',
    ],
    ['reordered columns: Spider permutes, BIRD compares tuples', 'SELECT name, country FROM singer', 'SELECT country, name FROM singer', 'correct', 'wrong'],
    ['one column more', 'SELECT name FROM singer', 'SELECT name, age FROM singer', 'wrong', 'wrong'],
    ['duplicates collapse for BIRD, count for Spider', 'SELECT country FROM singer', 'SELECT country FROM singer GROUP BY country', 'wrong', 'correct'],
    ['DISTINCT added: Spider removes it from both', 'SELECT country FROM singer', 'SELECT DISTINCT country FROM singer', 'correct', 'correct'],
    [
      'DISTINCT inside an aggregate is removed too (count(DISTINCT x) -> count(x))',
      'SELECT count(DISTINCT country) FROM singer',
      'SELECT count(country) FROM singer',
      'correct',
      'wrong',
    ],
    ['1 == 1.0', 'SELECT count(*) FROM singer', 'SELECT count(*) * 1.0 FROM singer', 'correct', 'correct'],
    // Spider's quick_rej sorts each row by str(x) + str(type(x)): 6 sorts after 60 ('<' > '0'),
    // 6.0 before it ('.' < '0'), so the rows differ and the pair is rejected; BIRD's sets agree.
    [
      '6 and 6.0 beside 60: Spider quick_rej tells int from float, BIRD does not',
      'SELECT count(*), 60 FROM singer',
      'SELECT count(*) * 1.0, 60 FROM singer',
      'wrong',
      'correct',
    ],
    ['(1, 1001) vs (1.0, 1001)', 'SELECT 1, 1001', 'SELECT 1.0, 1001', 'wrong', 'correct'],
    ['a float on the gold side is rejected the same way', 'SELECT avg(1), 1001 FROM singer', 'SELECT 1, 1001', 'wrong', 'correct'],
    ['int vs float that sort alike pass quick_rej', 'SELECT 1, 2', 'SELECT 1.0, 2', 'correct', 'correct'],
    [
      'ordered results: the quick rejection compares row by row',
      'SELECT age, 10 FROM singer ORDER BY age',
      'SELECT age, 10.0 FROM singer ORDER BY age',
      'correct',
      'correct',
    ],
    ["'6' != 6", 'SELECT count(*) FROM singer', 'SELECT CAST(count(*) AS TEXT) FROM singer', 'wrong', 'wrong'],
    ['floats compare exactly', 'SELECT 0.3', 'SELECT 0.1 + 0.2', 'wrong', 'wrong'],
    ['integers beyond 2^53 are not rounded', 'SELECT 9007199254740993', 'SELECT 9007199254740992', 'wrong', 'wrong'],
    ['both empty', 'SELECT name FROM singer WHERE age > 1000', 'SELECT name, age FROM singer WHERE 0', 'correct', 'correct'],
    ['empty vs. rows', 'SELECT name FROM singer WHERE age > 1000', 'SELECT name FROM singer', 'wrong', 'wrong'],
    [
      'double-quoted strings run as Python sqlite3 runs them',
      "SELECT name FROM singer WHERE country = 'France'",
      'SELECT name FROM singer WHERE country = "France"',
      'correct',
      'correct',
    ],
    ['`> =` is joined for Spider only', 'SELECT name FROM singer WHERE age >= 40', 'SELECT name FROM singer WHERE age > = 40', 'correct', 'pred_error'],
    ['predicted SQL that fails', 'SELECT name FROM singer', 'SELECT nope FROM singer', 'pred_error', 'pred_error'],
    ['gold SQL that fails', 'SELECT nope FROM singer', 'SELECT name FROM singer', 'gold_error', 'gold_error'],
  ])('%s', async (_name, gold, predicted, spider, bird) => {
    expect(await judge(() => singers, gold, predicted)).toEqual({ spider, bird });
  });

  it.each([
    [
      'NULL equals NULL',
      'SELECT Name, IndepYear FROM country WHERE IndepYear IS NULL',
      'SELECT Name, IndepYear FROM country WHERE IndepYear IS NULL ORDER BY Name',
      'correct',
      'correct',
    ],
    [
      'NULL is not an empty string',
      'SELECT IndepYear FROM country WHERE IndepYear IS NULL',
      "SELECT '' FROM country WHERE IndepYear IS NULL",
      'wrong',
      'wrong',
    ],
    ['NULL is not 0', 'SELECT IndepYear FROM country WHERE IndepYear IS NULL', 'SELECT 0 FROM country WHERE IndepYear IS NULL', 'wrong', 'wrong'],
  ])('%s (world_1)', async (_name, gold, predicted, spider, bird) => {
    expect(await judge(() => world, gold, predicted)).toEqual({ spider, bird });
  });

  it('finds the column permutation among five columns with repeated values', async () => {
    const gold = 'SELECT Code, Name, Continent, Region, Continent FROM country';
    const predicted = 'SELECT Continent, Region, Name, Continent, Code FROM country';
    expect(await judge(() => world, gold, predicted)).toEqual({ spider: 'correct', bird: 'wrong' });
    const shuffledValues = 'SELECT Continent, Region, Name, Region, Code FROM country';
    expect((await judge(() => world, gold, shuffledValues)).spider).toBe('wrong');
  });

  it('keeps DISTINCT when asked (--keep_distinct): then duplicates count', async () => {
    const verdict = await evaluateSpiderPair([singers], 'SELECT DISTINCT country FROM singer', 'SELECT country FROM singer', {
      timeoutMs: TIMEOUT,
      keepDistinct: true,
    });
    expect(verdict.verdict).toBe('wrong');
  });

  const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

  it('stops a predicted query at the timeout and scores it as a timeout', async () => {
    const t0 = Date.now();
    expect((await evaluateSpiderPair([singers], SLOW, 'SELECT 1', { timeoutMs: 300 })).verdict).toBe('pred_timeout');
    expect((await evaluateBirdPair(singers, SLOW, 'SELECT 1', 300)).verdict).toBe('pred_timeout');
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('BIRD: one timeout covers both queries, the gold runs on what is left', async () => {
    const verdict = await evaluateBirdPair(singers, 'SELECT 1', SLOW, 300);
    expect(verdict.verdict).toBe('gold_timeout');
  });

  it('test-suite mode: the prediction must match on every database variant', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-variants-'));
    const variant = path.join(dir, 'concert_singer_variant.sqlite');
    copyFileSync(spiderDatabasePath('concert_singer'), variant);
    const writer = new Database(variant);
    writer.prepare("UPDATE singer SET age = 60 WHERE name = 'Timbaland'").run();
    writer.close();
    const other = await openTargetDatabase(variant);
    try {
      // Right on the original data (Joe Sharp is the only singer over 50), wrong on the variant.
      const gold = 'SELECT name FROM singer WHERE age > 50';
      const predicted = "SELECT name FROM singer WHERE name = 'Joe Sharp'";
      expect((await evaluateSpiderPair([singers], predicted, gold, { timeoutMs: TIMEOUT })).verdict).toBe('correct');
      expect((await evaluateSpiderPair([singers, other], predicted, gold, { timeoutMs: TIMEOUT })).verdict).toBe('wrong');
      expect((await evaluateSpiderPair([singers, other], gold, gold, { timeoutMs: TIMEOUT })).verdict).toBe('correct');
    } finally {
      await other.close();
    }
  });

  it('reads whole results, and rewrites no literal inside single quotes', async () => {
    const all = await executeForEvaluation(world, 'SELECT * FROM city', TIMEOUT);
    expect(all.ok && all.rows.length).toBe(4079);
    const quoted = await executeForEvaluation(singers, `SELECT name FROM singer WHERE country = "France" AND name != '"France"'`, TIMEOUT);
    expect(quoted.ok && quoted.rows).toEqual([['Justin Brown'], ['Rose White'], ['John Nizinik'], ['Tribal King']]);
  });
});
