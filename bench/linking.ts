/**
 * Retrieval-only schema linking on Spider dev (DexterSQL §3.2 Step 1 without its LLM steps):
 * each question's columns come from the profile index, the value index (literals found in the
 * question) and the join columns between the tables found (activities/linking/retrieve-columns).
 * Gold columns come from parsing the gold SQL with the SQL analysis interface.
 *
 *   npm run bench:linking [-- --profile-text names|profile]
 *
 * `--profile-text` chooses what the profile index embeds (IndexConfig.profileText; default:
 * the configuration's default), to compare the paper's profile text with names only.
 * Prints `name: value` lines; gold_column_recall and kept_column_fraction are averages over the
 * questions whose gold SQL names at least one column (fractions 0–1).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_RETRIEVAL_OPTIONS, loadPreparedIndices, retrieveColumns, type PreparedIndices } from '../activities/linking/retrieve-columns';
import { loadPreparedProfiles } from '../activities/preparation/load-prepared';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { DEFAULT_PREPARATION_CONFIG, type ProfileIndexText } from '../core/preparation/preparation-config';
import { linkingScore } from '../core/evaluation/schema-linking';
import { createSqlAnalyzer, type SchemaHint } from '../core/sql-analysis';
import { startPreparationHarness } from '../test/preparation/preparation-harness';

interface DevQuestion {
  db_id: string;
  question: string;
  query: string;
}

async function main(): Promise<void> {
  const root = path.join(datasetsRoot(process.env), 'spider');
  const dev = JSON.parse(readFileSync(path.join(root, 'dev.json'), 'utf8')) as DevQuestion[];
  const analyzer = await createSqlAnalyzer();
  const at = process.argv.indexOf('--profile-text');
  const profileText = (at >= 0 ? process.argv[at + 1] : DEFAULT_PREPARATION_CONFIG.index.profileText) as ProfileIndexText;
  const harness = startPreparationHarness({ index: { profileText } });
  const prepared = new Map<string, { indices: PreparedIndices; hint: SchemaHint }>();
  let missing = 0;
  try {
    const prepareStarted = performance.now();
    for (const dbId of [...new Set(dev.map((q) => q.db_id))]) {
      const file = path.join(root, 'database', dbId, `${dbId}.sqlite`);
      // wta_1 ships without data (see the datasets' SOURCES.md): its questions are not counted.
      if (!existsSync(file) || statSync(file).size === 0) continue;
      const { manifest } = await harness.index(file);
      const { stored } = await loadPreparedProfiles(harness.store, manifest.databaseId, manifest.versions);
      const hint = { tables: stored.schema.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })) };
      prepared.set(dbId, { indices: await loadPreparedIndices(harness.store, manifest), hint });
    }
    const prepareSeconds = (performance.now() - prepareStarted) / 1000;

    let scored = 0;
    let noGoldColumns = 0;
    let unparsed = 0;
    let recallSum = 0;
    let keptSum = 0;
    let goldTotal = 0;
    let goldFound = 0;
    const started = performance.now();
    for (const q of dev) {
      const db = prepared.get(q.db_id);
      if (!db) {
        missing++;
        continue;
      }
      const analysis = analyzer.analyze(q.query, 'sqlite', db.hint);
      if (!analysis.ok) {
        unparsed++;
        continue;
      }
      const retrieved = await retrieveColumns(harness, db.indices, q.question);
      const focused = new Map<string, string[]>();
      for (const c of retrieved) focused.set(c.table, [...(focused.get(c.table) ?? []), c.column]);
      const score = linkingScore(analysis.columns, [...focused].map(([table, columns]) => ({ table, columns })));
      if (!score) {
        noGoldColumns++;
        continue;
      }
      scored++;
      recallSum += score.recall;
      keptSum += retrieved.length / db.indices.columnCount;
      goldTotal += score.goldColumns;
      goldFound += Math.round(score.recall * score.goldColumns);
    }
    const msPerQuestion = (performance.now() - started) / Math.max(1, scored + noGoldColumns);
    console.log(`questions: ${dev.length}`);
    console.log(`questions_scored: ${scored}`);
    console.log(`questions_without_gold_columns: ${noGoldColumns}`);
    console.log(`questions_missing_database: ${missing}`);
    console.log(`gold_sql_unparsed: ${unparsed}`);
    console.log(`gold_column_recall: ${(recallSum / scored).toFixed(4)}`);
    console.log(`gold_column_recall_micro: ${(goldFound / goldTotal).toFixed(4)}`);
    console.log(`kept_column_fraction: ${(keptSum / scored).toFixed(4)}`);
    console.log(`profile_index_text: ${profileText}`);
    console.log(`profile_hits_per_sqrt_column: ${DEFAULT_RETRIEVAL_OPTIONS.profileHitsPerSqrtColumn}`);
    console.log(`retrieval_ms_per_question: ${msPerQuestion.toFixed(2)}`);
    console.log(`index_build_seconds: ${prepareSeconds.toFixed(1)}`);
  } finally {
    await harness.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
