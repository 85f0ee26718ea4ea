/**
 * Execution accuracy of decodex's configurations with the local SQL model, side by side on one
 * fixed sample: a seeded sample of Spider dev stratified by database and hardness, each question
 * asked through the real `answerQuestion` workflow (via `runBenchmark`) on a Temporal dev server
 * with in-process workers, and scored by Spider's rules.
 *
 *   npm run bench:accuracy                                     # 100 questions; quick, decosearch, dextersql, hybrid
 *   npm run bench:accuracy -- --limit 30 --presets quick,hybrid
 *   npm run bench:accuracy -- --ablations hybrid:correction,hybrid:selection,decosearch:judger
 *   npm run bench:accuracy -- --ablations 'dextersql@selection.confidenceThreshold=0.8'
 *
 *   npm run bench:accuracy -- --ablations 'hybrid@judging.enabled=true;generation.paths=direct,dependency-tree,few-shot,divide-and-conquer'
 *   npm run bench:accuracy -- --dataset spider-train --presets hybrid --no-notes --home .decodex/bench-train
 *
 * `--dataset spider-train` samples Spider's training split instead (stratified by database only:
 * its questions carry no parsed SQL to grade hardness), the split a change is tuned on before
 * Spider dev reports it; `--dataset spider-syn-train` asks the same sample worded without the
 * schema's names (Spider-Syn), to tune for questions that do not name their columns.
 *
 * A configuration is `preset[:ablation+ablation...][@section.key=value;section.key=value...]`; a
 * list value keeps its commas (bench/accuracy-configurations.ts).
 *
 * Prints, per configuration, `name: value` lines: ex_<label>, its 95% Wilson interval,
 * ex_<label>_<hardness>, seconds_per_question_<label>, input_tokens_per_question_<label>,
 * prompt_tokens_evaluated_fraction_<label>, linking_recall_<label> (the focused schema against
 * the gold SQL's columns), kept_fraction_<label> (the focused schema's share of the database's
 * columns), failing_sql_<label>, right_candidate_<label> and lost_at_selection_<label> (questions
 * with a right candidate, and those of them answered wrong), and what the model did in this run whatever the
 * machine's speed: evaluated_prompt_tokens_per_question_<label>, generated_tokens_per_question_<label>
 * and decode_passes_per_question_<label> (a replayed call costs none); writes accuracy.md (the table) and accuracy.svg (EX against seconds
 * per question) into the home folder.
 *
 * Resumable: everything lives in one decodex home (default .decodex/bench-accuracy): finished
 * questions are stored per configuration and not asked again, and every model answer is in the
 * LLM cache, so an interrupted question replays its earlier calls for free. seconds_per_question
 * is the wall time of the questions as they ran; a question resumed from the cache looks faster.
 *
 * Offline knowledge, built once per home before the configurations run, as the papers build it
 * before answering: every database of the sample is prepared with the model (`decodex prepare`:
 * profiles, indices and the explorator's disambiguation notes; a database a question opens
 * unprepared would be prepared without a model, so DexterSQL's notes stage would have nothing;
 * `--no-notes` skips it), and the few-shot index is built from `--few-shot` (default spider-train;
 * `--few-shot ''` for none). The benchmark ids say which of the two a run had. Mined correction rules
 * and DecoSearch's decomposition knowledge base are not built here: each means answering hundreds of
 * training questions with the model (hours on a CPU). They are loaded from `--knowledge` (default
 * bench/carry/knowledge.json.gz, written by bench/carry-knowledge.ts from the home that built them;
 * `--knowledge ''` for none), and the benchmark ids carry the fingerprint of what the home holds.
 * Without them `dextersql` runs without rules and the decomposer without retrieved examples; both
 * stages say so in every trace.
 *
 * Slow (a CPU model answering hundreds of questions): run it in the background. The model's
 * threads come from DECODEX_LLM_LOCAL_THREADS (default: the cores not busy when it starts).
 *
 *   npm run bench:accuracy -- --report-only [--common]
 *
 * prints the same lines from what is stored so far, without running anything (a run still going,
 * or one interrupted); --common keeps only the questions every listed configuration has finished,
 * so partial results compare the same questions.
 *
 * Carried answers (`--carry`, default bench/carry/accuracy-llm-answers.jsonl.gz; `--carry ''` for
 * none): the home's LLM cache is read from that file before anything runs and written back to it
 * as questions finish and by --report-only, so a table too long for one machine's sitting goes on
 * from another clone: what was answered before replays, only the rest asks the model
 * (bench/llm-answer-carry.ts). Replayed questions are fast: see the "cached calls" column.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchmarkStore } from '../activities/benchmark/benchmark-store';
import { loadLlmConfig, settingsForRole } from '../activities/llm/llm-config';
import { accuracyLines, accuracyMarkdown, accuracyRow, type AccuracyRow } from '../core/benchmark/accuracy-table';
import { renderExSecondsChart } from '../core/benchmark/ex-seconds-chart';
import { exportCarriedAnswers, importCarriedAnswers } from './llm-answer-carry';
import { parseConfigurations } from './accuracy-configurations';
import { DATASET_NAMES, benchmarkOf, homeKnowledge, runConfigurations, sampleSize, withHomeStore, type BenchDataset } from './configuration-runs';
import { CARRIED_KNOWLEDGE } from './knowledge-carry';

function writeTable(home: string, name: string, rows: AccuracyRow[], about: string): void {
  writeFileSync(path.join(home, `${name}.md`), accuracyMarkdown(rows, about));
  writeFileSync(path.join(home, `${name}.svg`), renderExSecondsChart(rows));
  console.log(`table: ${path.join(home, `${name}.md`)}`);
  console.log(`chart: ${path.join(home, `${name}.svg`)}`);
}

/** Where the model's answers are carried between clones (see the header); relative to the repository. */
const DEFAULT_CARRY = path.resolve(__dirname, 'carry', 'accuracy-llm-answers.jsonl.gz');

async function saveCarry(home: string, carry: string): Promise<void> {
  if (!carry) return;
  const written = await withHomeStore(home, (store) => exportCarriedAnswers(store, carry));
  console.error(`bench:accuracy: ${written} model answers carried in ${carry}`);
}

/** --report-only: the rows from the records stored so far; with `common`, only questions every configuration finished. */
async function reportStored(home: string, benchmarks: { label: string; benchmarkId: string }[], common: boolean): Promise<AccuracyRow[]> {
  const records = await withHomeStore(home, (store) => Promise.all(benchmarks.map((b) => benchmarkStore(store).records(b.benchmarkId))));
  const shared = records.reduce((keep, list) => new Set(list.map((r) => r.index).filter((i) => keep.has(i))), new Set(records[0]?.map((r) => r.index)));
  return benchmarks.map((b, i) => accuracyRow(b.label, common ? records[i].filter((r) => shared.has(r.index)) : records[i]));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'spider-dev' },
      limit: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      presets: { type: 'string', default: 'quick,decosearch,dextersql,hybrid' },
      'few-shot': { type: 'string', default: 'spider-train' },
      'no-notes': { type: 'boolean', default: false },
      ablations: { type: 'string', default: '' },
      home: { type: 'string', default: '.decodex/bench-accuracy' },
      'report-only': { type: 'boolean', default: false },
      common: { type: 'boolean', default: false },
      carry: { type: 'string', default: DEFAULT_CARRY },
      knowledge: { type: 'string', default: CARRIED_KNOWLEDGE },
    },
  });
  const dataset = values.dataset as BenchDataset;
  if (!(dataset in DATASET_NAMES)) throw new Error(`--dataset takes ${Object.keys(DATASET_NAMES).join(' or ')}, got ${JSON.stringify(values.dataset)}`);
  const size = sampleSize(values.limit!);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
  const configurations = [...parseConfigurations(values.presets!), ...parseConfigurations(values.ablations!)];
  const llmConfig = loadLlmConfig(process.env);
  const generator = settingsForRole(llmConfig, 'generator');
  const home = path.resolve(values.home!);
  mkdirSync(home, { recursive: true });
  const about = `${DATASET_NAMES[dataset]}, ${size} questions (seed ${seed}, stratified by database${dataset === 'spider-dev' ? ' and hardness' : ''}), Spider's EX rules; model ${path.basename(generator.model)} (${generator.provider}).`;
  const carry = values.carry!;
  if (carry) {
    const added = await withHomeStore(home, (store) => importCarriedAnswers(store, carry));
    console.error(`bench:accuracy: ${added} carried model answers added to the home's LLM cache (${carry})`);
  }
  const knowledge = await homeKnowledge('bench:accuracy', home, { fewShot: values['few-shot']!, notes: !values['no-notes'], knowledgeFile: values.knowledge! });
  const sample = { size, seed };
  const benchmarks = configurations.map((c) => benchmarkOf('accuracy', c, dataset, sample, llmConfig, knowledge));

  if (values['report-only']) {
    await saveCarry(home, carry);
    const rows = await reportStored(home, benchmarks, values.common!);
    for (const row of rows) for (const line of accuracyLines(row)) console.log(line);
    const scope = values.common ? 'the questions every configuration has finished' : 'the questions each configuration has finished';
    writeTable(home, 'accuracy-so-far', rows, `${about} So far: ${scope}.`);
    return;
  }

  let saving: Promise<void> | undefined;
  const rows = await runConfigurations({
    bench: 'bench:accuracy',
    home,
    dataset,
    sample,
    knowledge,
    benchmarks,
    queuePrefix: 'bench-accuracy.',
    hooks: {
      knowledgeBuilt: () => saveCarry(home, carry), // the preparation's answers (the explorator's notes) took the longest
      progressed: () => {
        // Carried as questions finish (progress is reported only when it changes), so a run
        // stopped at any point leaves its answers behind; the save after the run catches up.
        if (!carry || saving) return;
        saving = saveCarry(home, carry)
          .catch((err: unknown) => console.error(`bench:accuracy: could not carry the answers: ${(err as Error).message}`))
          .finally(() => (saving = undefined));
      },
      finished: async (row) => {
        await saving;
        await saveCarry(home, carry);
        for (const line of accuracyLines(row)) console.log(line);
      },
    },
  });
  console.log(`model: ${path.basename(generator.model)}`);
  writeTable(home, 'accuracy', rows, about);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:accuracy: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
