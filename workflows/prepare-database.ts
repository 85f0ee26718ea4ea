import { continueAsNew, proxyActivities, setCurrentDetails, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ExplorationLlmActivities, PreparationActivities } from '../activities/preparation/preparation-activities';
import { redactDatabaseSpec } from '../core/database-label';
import { groupPairFamilies } from '../core/exploration/pair-families';
import type { CandidatePair } from '../core/exploration/pair-types';
import { mapWithConcurrency } from '../core/map-with-concurrency';
import { batchByWork } from '../core/preparation/work-batches';
import { resolvePreparationConfig, resolvePreparationLimits } from '../core/preparation/preparation-config';
import type { DatabaseInspection, PrepareDatabaseInput, PrepareDatabaseResult, PreparationCounts } from '../core/preparation/preparation-types';
import { DATABASE } from '../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { RunBudget } from '../core/budget';
import type { RunUsage } from '../core/usage';
import { progressQuery } from './queries';
import { StepRunner } from './kit/step-runner';
import type { TraceEvent } from '../core/answer-question-types';

/** The phases of a preparation, in order, with what each does (the trace's step summaries). */
const PHASE_SUMMARIES: Record<string, string> = {
  inspect: 'fingerprint, schema and stored artifacts',
  profile: 'column profiler (§3.1.1): one profile per column',
  index: 'index generator (§3.1.2): profile, value and lexical indices',
  candidates: 'explorator step 1: candidate pairs by name and profile similarity',
  triage: 'explorator step 2: LLM triage, three prompts per pair, majority vote',
  statistics: 'explorator step 3: overlap, coverage, fan-out, agreement by SQL',
  notes: 'explorator step 4: one note per family of confusable columns',
  publish: 'manifest, then removal of older versions',
};
const PHASES = Object.keys(PHASE_SUMMARIES);

/** What a run hands to the next one when the history grows long (continue-as-new). */
export interface PreparationCarry {
  usage: RunUsage;
  steps: TraceEvent[];
  startedAt: number;
  activityMs: PrepareDatabaseResult['activityMs'];
}

/** Failures a retry cannot fix. */
const NON_RETRYABLE = ['DatabaseUnavailable', 'ArtifactMissing', 'DocumentationUnreadable', 'ReadOnlyViolation'];

/**
 * DexterSQL Phase 1 (§3.1.1–3.1.3) for one target database, once, before questions:
 *
 *   inspectDatabase → profileTables × batches of tables → buildIndices (profile + value index) →
 *   findCandidatePairs → triageAmbiguousPair × candidates → measurePairStatistics × batches of
 *   confirmed pairs → synthesizeNote × families → publishPreparation
 *
 * Every result is an artifact keyed by the database's fingerprint and the configuration, so:
 * an unchanged database is a no-op (inspect finds the complete manifest); a run interrupted by
 * a crash, or continued-as-new, skips the tables already profiled; a changed database gets new
 * versions and `publishPreparation` removes the old ones. The `progress` query and the
 * current details show the phase and how far it is; LLM calls and tokens are bounded by
 * `limits` (a run that reaches them publishes what it has and says so).
 */
export async function prepareDatabase(input: PrepareDatabaseInput, carry?: PreparationCarry): Promise<PrepareDatabaseResult> {
  const config = resolvePreparationConfig(input.config);
  const limits = resolvePreparationLimits(input.limits);
  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const offline = proxyActivities<PreparationActivities>({
    taskQueue: taskQueue('offline', prefix),
    startToCloseTimeout: limits.activityTimeoutMs,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: { maximumAttempts: limits.maxAttempts, nonRetryableErrorTypes: NON_RETRYABLE },
  });
  const llm = proxyActivities<ExplorationLlmActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: limits.llmActivityTimeoutMs,
    heartbeatTimeout: limits.heartbeatTimeoutMs,
    retry: { maximumAttempts: limits.maxAttempts, initialInterval: '2s', backoffCoefficient: 2 },
  });

  const startedAt = carry?.startedAt ?? Date.now();
  const steps: TraceEvent[] = carry?.steps ?? [];
  const budget = new RunBudget({ maxLlmCalls: limits.maxLlmCalls, maxTokens: limits.maxTokens }, () => Date.now(), { usage: carry?.usage, startedAt });
  // Spread over zeros: a run carried over from before a counter existed starts that counter at 0.
  const activityMs = { profiling: 0, valueIndex: 0, profileIndex: 0, ...carry?.activityMs };
  let progress = { step: 'inspect', done: 0, total: 1 };
  setHandler(progressQuery, () => progress);
  const phase = (step: string, done: number, total: number, detail: string) => {
    progress = { step, done, total };
    setCurrentDetails(`**${step}** ${done}/${total}: ${detail}`);
  };
  // One runner per run: its trace continues the steps of earlier runs of a continued chain.
  const runner = new StepRunner(budget, PHASES.length);
  runner.trace.push(...steps);
  const timed = <T>(step: string, run: () => Promise<T>, summarize: (result: T) => string): Promise<T> =>
    runner
      .step({ stage: 'preparation', name: step, summary: PHASE_SUMMARIES[step] ?? step }, run, (r) => ({ outcome: summarize(r) }))
      .finally(() => runner.stageDone(step));

  phase('inspect', 0, 1, `fingerprint and schema of ${redactDatabaseSpec(input.database)}`);
  const inspection: DatabaseInspection = await timed(
    'inspect',
    () =>
      offline.inspectDatabase.executeWithOptions({ summary: `inspect ${redactDatabaseSpec(input.database)}: fingerprint, schema, stored artifacts` }, [
        { database: input.database, documentation: input.documentation, config, queryTimeoutMs: limits.queryTimeoutMs },
      ]),
    (i) => `${i.tables.length} tables, ${i.profiledTables.length} already profiled${i.current ? ', prepared and unchanged' : ''}`,
  );
  upsertSearchAttributes([{ key: DATABASE, value: inspection.label }]);
  const { databaseId, versions } = inspection;
  const result = (status: PrepareDatabaseResult['status'], manifest: PrepareDatabaseResult['manifest'], extra: Partial<PrepareDatabaseResult> = {}) => {
    setCurrentDetails(`**${status}**: ${manifest.counts.tables} tables, ${manifest.counts.columns} columns, ${manifest.counts.notes} notes`);
    return {
      status,
      databaseId,
      label: inspection.label,
      manifest,
      profiledTables: 0,
      reusedTables: inspection.tables.length,
      usage: budget.usage,
      steps: runner.trace,
      activityMs,
      ...extra,
    };
  };
  if (inspection.current && !input.force) return result('unchanged', inspection.current);

  // Column profiler (§3.1.1): the tables not profiled yet, in batches of about
  // `valuesPerActivity` values read (a small database is one activity, a big table one of its own).
  // Stored profiles are reused even with `force`: same version, same data, same profile.
  const finished = new Set(inspection.profiledTables);
  const todo = inspection.tables.filter((t) => !finished.has(t.name));
  const tableBatches = batchByWork(todo, (t) => Math.min(t.rowCount, config.profile.rowScanLimit) * t.columnCount, limits.valuesPerActivity);
  let profiled = inspection.tables.length - todo.length;
  phase('profile', profiled, inspection.tables.length, `${todo.length} tables to profile`);
  await timed(
    'profile',
    () =>
      mapWithConcurrency(tableBatches, limits.parallelTables, async (batch) => {
        const out = await offline.profileTables.executeWithOptions(
          {
            summary: `profile ${describeBatch(batch.map((t) => t.name))}: ${batch.reduce((n, t) => n + t.columnCount, 0)} columns, ${batch.reduce((n, t) => n + t.rowCount, 0)} rows`,
          },
          [
            {
              database: input.database,
              databaseId,
              versions,
              tables: batch.map((t) => t.name),
              config: config.profile,
              queryTimeoutMs: limits.queryTimeoutMs,
              columnsPerScan: limits.columnsPerScan,
            },
          ],
        );
        activityMs.profiling += out.elapsedMs;
        profiled += batch.length;
        phase('profile', profiled, inspection.tables.length, `profiled ${describeBatch(batch.map((t) => t.name))}`);
        return out;
      }),
    (outs) => `${todo.length} tables profiled in ${outs.length} activities, ${inspection.tables.length - todo.length} reused`,
  );
  // A long history is handed over here: the next run finds every profile stored and skips them.
  if (workflowInfo().continueAsNewSuggested)
    await continueAsNew<typeof prepareDatabase>(input, { usage: budget.usage, steps: runner.trace, startedAt, activityMs });

  // Index generator (§3.1.2): profile index and value index (+ lexical index), side by side in one activity.
  phase('index', 0, 1, 'embedding profiles and values');
  const { profiles: profileIndex, values: valueIndex } = await timed(
    'index',
    () =>
      offline.buildIndices.executeWithOptions(
        {
          summary: `embed one profile per column, and distinct text values (≤ ${config.index.valuesPerColumn} per column), into the profile and value indices`,
        },
        [{ database: input.database, databaseId, versions, config: config.index, queryTimeoutMs: limits.queryTimeoutMs }],
      ),
    ({ profiles: p, values: v }) => `${p.columns} profiles, ${v.valuesIndexed} text values embedded, ${v.lexiconValues} values in the lexical index`,
  );
  activityMs.valueIndex += valueIndex.valueIndexMs;
  activityMs.profileIndex += profileIndex.elapsedMs;

  // Deep schema explorator (§3.1.3), Step 1.
  phase('candidates', 0, 1, 'name and profile similarity');
  const found = await timed(
    'candidates',
    () =>
      offline.findCandidatePairs.executeWithOptions({ summary: 'step 1: candidate pairs by name tokens and profile similarity' }, [
        { databaseId, versions, config: config.exploration },
      ]),
    (f) => `${f.candidates.length} candidates of ${f.compared} pairs compared${f.cut ? `, ${f.cut} cut by maxCandidatePairs` : ''}`,
  );

  // Step 2: LLM triage, within the call and token budget (skipped without a model: every
  // candidate is then measured in Step 3, and none is called confirmed).
  const { useLlm } = config.exploration;
  let triaged = 0;
  phase('triage', 0, found.candidates.length, useLlm ? 'three prompts per pair, majority vote' : 'skipped: exploration.useLlm is off');
  const confirmed: CandidatePair[] = [];
  if (useLlm)
    await timed(
      'triage',
      () =>
        mapWithConcurrency(found.candidates, limits.parallelLlmCalls, async (pair) => {
          const outcome = await budget.spend(
            3,
            () =>
              llm.triageAmbiguousPair.executeWithOptions(
                { summary: `step 2: is ${pair.a.table}.${pair.a.column} / ${pair.b.table}.${pair.b.column} ambiguous? (3 prompts)` },
                [{ databaseId, versions, dialect: inspection.dialect, pair, maxJoinHops: config.exploration.maxJoinHops }],
              ),
            (o) => o.usage,
          );
          if (!outcome) return;
          if (outcome.ambiguous) confirmed.push(pair);
          phase('triage', ++triaged, found.candidates.length, `${confirmed.length} confirmed so far`);
        }),
      () =>
        `${confirmed.length} of ${triaged} triaged pairs confirmed ambiguous${triaged < found.candidates.length ? ` (${found.candidates.length - triaged} not triaged: budget)` : ''}`,
    );
  confirmed.sort((x, y) => x.id.localeCompare(y.id));

  // Step 3: deep investigation, plain SQL, no model; pairs in batches as tables are.
  const toMeasure = useLlm ? confirmed : found.candidates;
  const rowsOf = new Map(inspection.tables.map((t) => [t.name, t.rowCount]));
  const pairBatches = batchByWork(toMeasure, (p) => (rowsOf.get(p.a.table) ?? 0) + (rowsOf.get(p.b.table) ?? 0), limits.valuesPerActivity);
  let measured = 0;
  phase('statistics', 0, toMeasure.length, 'overlap, coverage, fan-out, agreement');
  await timed(
    'statistics',
    () =>
      mapWithConcurrency(pairBatches, limits.parallelTables, async (batch) => {
        const evidence = await offline.measurePairStatistics.executeWithOptions({ summary: `step 3: statistics of ${describeBatch(batch.map((p) => p.id))}` }, [
          { database: input.database, databaseId, versions, pairs: batch, config: config.exploration, queryTimeoutMs: limits.queryTimeoutMs },
        ]);
        measured += batch.length;
        phase('statistics', measured, toMeasure.length, `measured ${describeBatch(batch.map((p) => p.id))}`);
        return evidence;
      }),
    (batches) => {
      const all = batches.flat();
      return `${all.length} pairs measured in ${batches.length} activities, ${all.filter((e) => e.join).length} with a join path`;
    },
  );

  // Step 4: one note per family of pairs sharing columns.
  const families = groupPairFamilies(confirmed);
  const noteIds: string[] = [];
  let written = 0;
  phase('notes', 0, families.length, useLlm ? 'one note per family of confusable columns' : 'skipped: exploration.useLlm is off');
  if (useLlm)
    await timed(
      'notes',
      () =>
        mapWithConcurrency(families, limits.parallelLlmCalls, async (family) => {
          const familyId = family.pairs[0].id;
          const note = await budget.spend(
            1,
            () =>
              llm.synthesizeNote.executeWithOptions({ summary: `step 4: note on ${family.columns.map((c) => `${c.table}.${c.column}`).join(', ')}` }, [
                {
                  databaseId,
                  versions,
                  dialect: inspection.dialect,
                  familyId,
                  columns: family.columns,
                  pairIds: family.pairs.map((p) => p.id),
                  maxPairsPerNote: config.exploration.maxPairsPerNote,
                },
              ]),
            (n) => [n.usage],
          );
          if (!note) return;
          noteIds.push(note.id);
          phase('notes', ++written, families.length, `note on ${familyId}`);
        }),
      () => `${noteIds.length} of ${families.length} family notes written`,
    );
  noteIds.sort();

  const counts: PreparationCounts = {
    tables: inspection.tables.length,
    columns: profileIndex.columns,
    rows: inspection.tables.reduce((n, t) => n + t.rowCount, 0),
    valuesIndexed: valueIndex.valuesIndexed,
    candidatePairs: found.candidates.length,
    confirmedPairs: confirmed.length,
    notes: noteIds.length,
  };
  phase('publish', 0, 1, 'manifest, then removal of older versions');
  const published = await timed(
    'publish',
    () =>
      offline.publishPreparation.executeWithOptions({ summary: 'write the manifest and remove older versions' }, [
        {
          databaseId,
          label: inspection.label,
          database: redactDatabaseSpec(input.database),
          dialect: inspection.dialect,
          fingerprint: inspection.fingerprint,
          versions,
          counts,
          complete: budget.stoppedBy === undefined,
          noteIds,
          preparedAt: new Date(startedAt).toISOString(),
        },
      ]),
    (p) => `manifest written; removed ${p.removedArtifacts} old artifacts and ${p.removedCollections.length} old collections`,
  );
  progress = { step: 'done', done: 1, total: 1 };
  return result(budget.stoppedBy ? 'budget_exhausted' : 'prepared', published.manifest, {
    profiledTables: todo.length,
    reusedTables: inspection.tables.length - todo.length,
    ...(budget.stoppedBy ? { budgetMessage: budget.stoppedBy.message } : {}),
  });
}

/** A batch in an activity summary or the progress line: its first names, and how many more. */
function describeBatch(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}
