/**
 * How well the dependency-tree IR (core/generation/dependency-tree) reads benchmark questions,
 * against facts parsed from each question's gold SQL (bench/ir/gold-facts.ts).
 *
 *   npm run bench:ir            # name: value lines on stdout
 *   npm run bench:ir -- --misses # also every missed literal on stderr
 *
 * Rates, per question set (questions whose gold SQL does not parse are left out):
 * - literal_capture_rate: of the gold SQL literals that appear in the question text (word-
 *   aligned, case-insensitive, numbers compared as numbers so "three" = 3; see
 *   bench/ir/literal-match.ts), the fraction the tree holds as a filter / temporal value or as
 *   its LIMIT count. Literals absent from the question (evidence-only values, codes like 'F',
 *   LIMIT 1 of a superlative) are outside the denominator.
 * - aggregate_prediction_rate: accuracy of predicting whether the gold SQL calls an aggregate
 *   (COUNT/AVG/SUM/MAX/MIN anywhere); the tree predicts yes when it has an aggregate.
 * - order_limit_prediction_rate: accuracy of predicting whether the gold SQL's outermost query
 *   has ORDER BY and LIMIT; the tree predicts yes when it has a LIMIT.
 * - projection_count_rate: how often the tree asks for as many things as the gold SQL's outermost
 *   SELECT lists; a question whose asked-for columns the tree drops (or invents) misses.
 * - literal_precision: of the values the tree captures, the fraction that equal a gold literal
 *   (same matching); the price of capturing generously, since every value lands in the prompt.
 * - condition_precision: the same over the values the skeleton writes as conditions (WHERE /
 *   HAVING), leaving out the guesses on its "maybe" line: how often the tree invents a filter.
 * Train (Spider train, BIRD train) and dev (Spider dev, BIRD dev) are printed apart, one `name: value`
 * per line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { parseQuestionTree } from '../core/generation/dependency-tree';
import { createSqlAnalyzer } from '../core/sql-analysis';
import type { SqlAnalyzer } from '../core/sql-analysis';
import { goldFacts } from './ir/gold-facts';
import { appearsInQuestion, capturedBy, normaliseGoldLiteral, treeValues } from './ir/literal-match';

interface Pair {
  question: string;
  sql: string;
}

const readJson = (file: string): any[] => JSON.parse(readFileSync(path.join(datasetsRoot(), file), 'utf8'));

/**
 * Training questions first: the rules in core/generation/dependency-tree are shaped on these alone.
 * The dev sets are what decodex is evaluated on, so they are only reported, never tuned against.
 */
const QUESTION_SETS: { name: string; load: () => Pair[] }[] = [
  { name: 'spider_train', load: () => readJson('spider-syn/train_spider.json').map((q) => ({ question: q.SpiderQuestion, sql: q.query })) },
  { name: 'bird_train', load: () => readJson('bird/train/train.json').map((q) => ({ question: q.question, sql: q.SQL })) },
  { name: 'spider_dev', load: () => readJson('spider/dev.json').map((q) => ({ question: q.question, sql: q.query })) },
  { name: 'bird_dev', load: () => readJson('bird/dev.json').map((q) => ({ question: q.question, sql: q.SQL })) },
];

interface Tally {
  literals: number;
  captured: number;
  treeValues: number;
  treeValuesInGold: number;
  conditionValues: number;
  conditionValuesInGold: number;
  questions: number;
  aggregateRight: number;
  orderLimitRight: number;
  projectionCountRight: number;
  seconds: number;
}

function measure(analyzer: SqlAnalyzer, pairs: Pair[], name: string, showMisses: boolean): Tally {
  const tally: Tally = {
    literals: 0,
    captured: 0,
    treeValues: 0,
    treeValuesInGold: 0,
    conditionValues: 0,
    conditionValuesInGold: 0,
    questions: 0,
    aggregateRight: 0,
    orderLimitRight: 0,
    projectionCountRight: 0,
    seconds: 0,
  };
  for (const pair of pairs) {
    const facts = goldFacts(analyzer, pair.sql);
    if (!facts) continue;
    const started = process.hrtime.bigint();
    const tree = parseQuestionTree(pair.question);
    tally.seconds += Number(process.hrtime.bigint() - started) / 1e9;
    tally.questions++;
    const values = treeValues(tree);
    for (const raw of facts.literals) {
      const literal = normaliseGoldLiteral(raw);
      if (literal === null || !appearsInQuestion(literal, pair.question)) continue;
      tally.literals++;
      if (capturedBy(literal, values)) tally.captured++;
      else if (showMisses) process.stderr.write(`# ${name} miss ${JSON.stringify(raw)} || ${pair.question} || ${values.map((v) => v.text).join(' | ')}\n`);
    }
    const gold = facts.literals.map(normaliseGoldLiteral).filter((l): l is string | number => l !== null);
    for (const value of values) {
      tally.treeValues++;
      if (gold.some((literal) => capturedBy(literal, [value]))) tally.treeValuesInGold++;
    }
    for (const value of [...tree.filters, ...tree.temporal].flatMap((f) => f.values)) {
      tally.conditionValues++;
      if (gold.some((literal) => capturedBy(literal, [value]))) tally.conditionValuesInGold++;
    }
    if (facts.aggregates === tree.aggregates.length > 0) tally.aggregateRight++;
    if (facts.orderLimit === (tree.limit !== null)) tally.orderLimitRight++;
    if (tree.projections.length === facts.selectItems) tally.projectionCountRight++;
  }
  return tally;
}

const ratio = (a: number, b: number): string => (b === 0 ? '0' : (a / b).toFixed(4));

async function main(): Promise<void> {
  const showMisses = process.argv.includes('--misses');
  const analyzer = await createSqlAnalyzer();
  parseQuestionTree('Warm up the model.'); // model loading is not per-question time
  let questions = 0;
  let seconds = 0;
  for (const set of QUESTION_SETS) {
    const t = measure(analyzer, set.load(), set.name, showMisses);
    console.log(`literal_capture_rate_${set.name}: ${ratio(t.captured, t.literals)}`);
    console.log(`literals_in_question_${set.name}: ${t.literals}`);
    console.log(`literal_precision_${set.name}: ${ratio(t.treeValuesInGold, t.treeValues)}`);
    console.log(`condition_precision_${set.name}: ${ratio(t.conditionValuesInGold, t.conditionValues)}`);
    console.log(`aggregate_prediction_rate_${set.name}: ${ratio(t.aggregateRight, t.questions)}`);
    console.log(`order_limit_prediction_rate_${set.name}: ${ratio(t.orderLimitRight, t.questions)}`);
    console.log(`projection_count_rate_${set.name}: ${ratio(t.projectionCountRight, t.questions)}`);
    console.log(`questions_${set.name}: ${t.questions}`);
    questions += t.questions;
    seconds += t.seconds;
  }
  console.log(`questions_per_second: ${(questions / seconds).toFixed(0)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
