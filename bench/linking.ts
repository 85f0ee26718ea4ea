/**
 * Retrieval-only schema linking on Spider (DexterSQL §3.2 Step 1 without its LLM steps): each
 * question's columns come from the profile index, the value index (literals found in the
 * question), the join columns between the tables found and the bridge tables that link them
 * (activities/linking/retrieve-columns). Gold columns come from parsing the gold SQL with the
 * SQL analysis interface.
 *
 *   npm run bench:linking [-- --dataset spider-dev|spider-train|spider-syn-train] [--embedder hashed|minilm] [--profile-hits 1.1] [--profile-text names|profile]
 *                         [--name-matches on|off] [--join-hops 1] [--misses N]
 *
 * Without options, every dataset with every embedder: `<name>_<dataset>_<embedder>` lines, then
 * the unsuffixed lines of Spider dev with the default embedder (DECODEX_EMBEDDER's default).
 * gold_column_recall and kept_column_fraction are averages over the questions whose gold SQL
 * names at least one column (fractions 0–1).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { disposeMiniLmModels } from '../activities/embeddings/minilm-embedder';
import { embedderChoice, indexEmbeddersFromEnv } from '../activities/indexing/index-backends';
import {
  DEFAULT_RETRIEVAL_OPTIONS,
  loadPreparedIndices,
  retrieveColumns,
  type PreparedIndices,
  type RetrieveColumnsOptions,
} from '../activities/linking/retrieve-columns';
import { loadPreparedProfiles } from '../activities/prepared/load-prepared';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { DEFAULT_PREPARATION_CONFIG, PROFILE_INDEX_TEXTS, type ProfileIndexText } from '../core/preparation/preparation-config';
import { linkingScore } from '../core/evaluation/schema-linking';
import { createSqlAnalyzer, type SchemaHint, type SqlAnalyzer } from '../core/sql-analysis';
import { startPreparationHarness } from '../devkit/preparation-harness';
import { EXTRA_LINKING_DATASETS, LINKING_DATASETS, linkingQuestions, type LinkingDataset } from './linking-questions';

const EMBEDDERS = ['hashed', 'minilm'] as const;
type LinkingEmbedder = (typeof EMBEDDERS)[number];

type Lines = [name: string, value: string][];

async function runLinking(
  analyzer: SqlAnalyzer,
  dataset: LinkingDataset,
  embedder: LinkingEmbedder,
  options: RetrieveColumnsOptions,
  profileText: ProfileIndexText,
  misses: number,
): Promise<Lines> {
  const datasets = datasetsRoot(process.env);
  const root = path.join(datasets, 'spider');
  const questions = linkingQuestions(datasets, dataset);
  const harness = startPreparationHarness({ embedders: indexEmbeddersFromEnv({ DECODEX_EMBEDDER: embedder }), config: { index: { profileText } } });
  const prepared = new Map<string, { indices: PreparedIndices; hint: SchemaHint }>();
  let missing = 0;
  try {
    const prepareStarted = performance.now();
    for (const dbId of [...new Set(questions.map((q) => q.dbId))]) {
      const file = path.join(root, 'database', dbId, `${dbId}.sqlite`);
      // wta_1 ships without data and some train databases are missing (see the datasets'
      // SOURCES.md): their questions are not counted.
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
    for (const q of questions) {
      const db = prepared.get(q.dbId);
      if (!db) {
        missing++;
        continue;
      }
      const analysis = analyzer.analyze(q.sql, 'sqlite', db.hint);
      if (!analysis.ok) {
        unparsed++;
        continue;
      }
      const retrieved = await retrieveColumns(harness, db.indices, q.question, options);
      const focused = new Map<string, string[]>();
      for (const c of retrieved) focused.set(c.table, [...(focused.get(c.table) ?? []), c.column]);
      const score = linkingScore(
        analysis.columns,
        [...focused].map(([table, columns]) => ({ table, columns })),
        db.indices.columnCount,
      );
      if (!score) {
        noGoldColumns++;
        continue;
      }
      if (score.recall < 1 && misses-- > 0) {
        const kept = new Set(retrieved.map((c) => `${c.table}.${c.column}`.toLowerCase()));
        const missed = analysis.columns.filter((g) => g.column !== '*' && g.table !== null && !kept.has(`${g.table}.${g.column}`.toLowerCase()));
        console.error(`miss: ${q.dbId}: ${q.question} → ${missed.map((g) => `${g.table}.${g.column}`).join(', ')}`);
      }
      scored++;
      recallSum += score.recall;
      keptSum += score.keptFraction;
      goldTotal += score.goldColumns;
      goldFound += Math.round(score.recall * score.goldColumns);
    }
    const msPerQuestion = (performance.now() - started) / Math.max(1, scored + noGoldColumns);
    return [
      ['questions', String(questions.length)],
      ['questions_scored', String(scored)],
      ['questions_without_gold_columns', String(noGoldColumns)],
      ['questions_missing_database', String(missing)],
      ['gold_sql_unparsed', String(unparsed)],
      ['gold_column_recall', (recallSum / scored).toFixed(4)],
      ['gold_column_recall_micro', (goldFound / goldTotal).toFixed(4)],
      ['kept_column_fraction', (keptSum / scored).toFixed(4)],
      ['retrieval_ms_per_question', msPerQuestion.toFixed(2)],
      ['index_build_seconds', prepareSeconds.toFixed(1)],
    ];
  } finally {
    await harness.close();
  }
}

/** The named choice, or every default one when the option is absent. */
function option<T extends string>(args: string[], name: string, defaults: readonly T[], choices: readonly T[] = defaults): T[] {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return [...defaults];
  const value = args[at + 1];
  if (!(choices as readonly string[]).includes(value)) throw new Error(`--${name} must be one of ${choices.join(', ')}, got ${value ?? 'nothing'}`);
  return [value as T];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const datasets = option<LinkingDataset>(args, 'dataset', LINKING_DATASETS, [...LINKING_DATASETS, ...EXTRA_LINKING_DATASETS]);
  const embedders = option(args, 'embedder', EMBEDDERS);
  const fallback: LinkingEmbedder = embedderChoice({}) === 'minilm' ? 'minilm' : 'hashed';
  const defaultEmbedder = embedders.includes(fallback) ? fallback : embedders[0];
  // Another profile-hit budget, to compare embedders at the same share of columns kept.
  const hitsAt = args.indexOf('--profile-hits');
  const withHits = hitsAt < 0 ? DEFAULT_RETRIEVAL_OPTIONS : { ...DEFAULT_RETRIEVAL_OPTIONS, profileHitsPerSqrtColumn: Number(args[hitsAt + 1]) };
  // Column-name matches among the found tables on or off (RetrieveColumnsOptions.nameMatches).
  const namesAt = args.indexOf('--name-matches');
  const withNames = namesAt < 0 ? withHits : { ...withHits, nameMatches: args[namesAt + 1] === 'on' };
  const hopsAt = args.indexOf('--join-hops');
  const options = hopsAt < 0 ? withNames : { ...withNames, joinHops: Number(args[hopsAt + 1]) };
  // What the profile index embeds (IndexConfig.profileText): names only, or the paper's whole profile.
  const [profileText] = option<ProfileIndexText>(args, 'profile-text', [DEFAULT_PREPARATION_CONFIG.index.profileText], PROFILE_INDEX_TEXTS);
  // Questions whose gold columns were not all retrieved, listed on stderr (the first N).
  const missesAt = args.indexOf('--misses');
  const misses = missesAt < 0 ? 0 : Number(args[missesAt + 1]);
  const analyzer = await createSqlAnalyzer();
  let defaults: Lines = [];
  for (const dataset of datasets) {
    for (const embedder of embedders) {
      const lines = await runLinking(analyzer, dataset, embedder, options, profileText, misses);
      for (const [name, value] of lines) console.log(`${name}_${dataset.replace(/-/g, '_')}_${embedder}: ${value}`);
      if (dataset === datasets[0] && embedder === defaultEmbedder) defaults = lines;
    }
  }
  console.log(`dataset: ${datasets[0]}`);
  console.log(`embedder: ${defaultEmbedder}`);
  for (const [name, value] of defaults) console.log(`${name}: ${value}`);
  console.log(`profile_index_text: ${profileText}`);
  console.log(`profile_hits_per_sqrt_column: ${options.profileHitsPerSqrtColumn}`);
  console.log(`name_matches: ${options.nameMatches ? 'on' : 'off'}`);
  console.log(`join_hops: ${options.joinHops}`);
  await disposeMiniLmModels();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
