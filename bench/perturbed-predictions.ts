/**
 * Perturbed-prediction check of the evaluators: every executable Spider dev gold query is
 * rewritten (bench/sql-perturbations.ts) and the pair judged by the same code the benchmark
 * uses, under Spider rules and under BIRD rules. Prints verdict counts as `name: value` lines.
 *
 *   npm run bench:perturbed                      # all of Spider dev
 *   npm run bench:perturbed -- --limit 200 --dump /tmp/pairs.jsonl   # every pair with its verdicts
 *
 * What the official rules predict: permuted columns are correct for Spider and wrong for BIRD
 * (unless the swapped columns hold the same values); added DISTINCT is correct for Spider (it
 * removes DISTINCT) and for BIRD (sets) unless a LIMIT then keeps other rows; a dropped ORDER BY
 * is correct for BIRD and wrong for Spider unless the rows happen to come out in order; a
 * changed literal is wrong unless the literal does not change the result.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadDataset } from '../activities/benchmark/datasets/load-dataset';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { sharedSqliteProcessPool } from '../activities/database/sqlite-process-pool';
import { evaluateBirdPair } from '../activities/evaluation/evaluate-bird-pair';
import { evaluateSpiderPair } from '../activities/evaluation/evaluate-spider-pair';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { PERTURBATIONS, perturb } from './sql-perturbations';

const TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { limit: { type: 'string' }, dump: { type: 'string' } } });
  const dataset = loadDataset({ dataset: 'spider-dev', root: datasetsRoot(process.env), limit: values.limit ? Number(values.limit) : undefined });
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const counts = new Map<string, number>();
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const dump: string[] = [];
  const executable = dataset.questions.filter((q) => !q.notExecutable);

  for (const q of executable) {
    const variants = await Promise.all(q.evaluationDatabases.map((d) => databases.get(d)));
    for (const kind of PERTURBATIONS) {
      const predicted = perturb(q.goldSql, kind);
      if (predicted === null) continue;
      const spider = await evaluateSpiderPair(variants, predicted, q.goldSql, { timeoutMs: TIMEOUT_MS });
      const bird = await evaluateBirdPair(variants[0], predicted, q.goldSql, TIMEOUT_MS);
      bump(`pairs_${kind}`);
      bump(`spider_${kind}_${spider.verdict}`);
      bump(`bird_${kind}_${bird.verdict}`);
      if (values.dump) dump.push(JSON.stringify({ index: q.index, db: q.dbId, kind, gold: q.goldSql, predicted, spider: spider.verdict, bird: bird.verdict }));
    }
  }
  if (values.dump) writeFileSync(values.dump, dump.join('\n') + '\n');

  console.log(`executable_questions: ${executable.length}`);
  for (const kind of PERTURBATIONS) {
    console.log(`pairs_${kind}: ${counts.get(`pairs_${kind}`) ?? 0}`);
    for (const rules of ['spider', 'bird']) {
      const verdicts = [...counts.entries()].filter(([k]) => k.startsWith(`${rules}_${kind}_`)).sort();
      for (const [key, n] of verdicts) console.log(`${key}: ${n}`);
    }
  }
  await databases.closeAll();
  await sharedSqliteProcessPool().close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
