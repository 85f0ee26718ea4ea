import { continueAsNew, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { DatabaseInspection, PrepareDatabaseInput, PrepareDatabaseResult, PreparationCounts } from '../core/preparation/preparation-types';
import { explorePairs } from './preparation/explore-pairs';
import { indexProfilesAndValues } from './preparation/index-values';
import { inspectTarget } from './preparation/inspect';
import { PREPARATION_STAGE, startPreparationRun, type PreparationCarry, type PreparationRun } from './preparation/preparation-run';
import { profileColumns } from './preparation/profile';
import { publishManifest } from './preparation/publish';
import { writeNotes } from './preparation/write-notes';

export type { PreparationCarry } from './preparation/preparation-run';

/**
 * DexterSQL Phase 1 (§3.1.1–3.1.3) for one target database, once, before questions:
 *
 *   inspect → profile (column profiler) → index (profile and value indices) →
 *   explore (candidate pairs, LLM triage, pair statistics) → notes → publish
 *
 * Every result is an artifact keyed by the database's fingerprint and the configuration, so:
 * an unchanged database is a no-op (inspect finds the complete manifest); a run interrupted by
 * a crash, or continued-as-new, skips the tables already profiled; a changed database gets new
 * versions and `publish` removes the old ones. The `progress` query and the current details
 * show the phase and how far it is, `trace` every step; LLM calls and tokens are bounded by
 * `limits` (a run that reaches them publishes what it has and says so).
 */
export async function prepareDatabase(input: PrepareDatabaseInput, carry?: PreparationCarry): Promise<PrepareDatabaseResult> {
  const run = startPreparationRun(input, carry);
  const inspection = await inspectTarget(run);
  if (inspection.current && !input.force) return finish(run, inspection, 'unchanged', inspection.current, { reusedTables: inspection.tables.length });

  const profiledTables = await profileColumns(run, inspection);
  // A long history is handed over here: the next run finds every profile stored and skips them.
  if (workflowInfo().continueAsNewSuggested)
    await continueAsNew<typeof prepareDatabase>(input, {
      usage: run.budget.usage,
      steps: run.runner.trace,
      startedAt: run.startedAt,
      activityMs: run.activityMs,
    });

  const indices = await indexProfilesAndValues(run, inspection);
  const { candidates, confirmed } = await explorePairs(run, inspection);
  const noteIds = run.config.exploration.useLlm ? await writeNotes(run, inspection, confirmed) : [];
  const counts: PreparationCounts = {
    tables: inspection.tables.length,
    columns: indices.profiles.columns,
    rows: inspection.tables.reduce((n, t) => n + t.rowCount, 0),
    valuesIndexed: indices.values.valuesIndexed,
    candidatePairs: candidates.length,
    confirmedPairs: confirmed.length,
    notes: noteIds.length,
  };
  const manifest = await publishManifest(run, inspection, counts, noteIds);
  const stopped = run.budget.stoppedBy;
  return finish(run, inspection, stopped ? 'budget_exhausted' : 'prepared', manifest, {
    profiledTables,
    reusedTables: inspection.tables.length - profiledTables,
    ...(stopped ? { budgetMessage: stopped.message } : {}),
  });
}

/** The run's result: the manifest, what was profiled or reused, usage, and the phases' timings (`steps`). */
function finish(
  run: PreparationRun,
  inspection: DatabaseInspection,
  status: PrepareDatabaseResult['status'],
  manifest: PrepareDatabaseResult['manifest'],
  extra: Partial<PrepareDatabaseResult>,
): PrepareDatabaseResult {
  setCurrentDetails(`**${status}**: ${manifest.counts.tables} tables, ${manifest.counts.columns} columns, ${manifest.counts.notes} notes`);
  return {
    status,
    databaseId: inspection.databaseId,
    label: inspection.label,
    manifest,
    profiledTables: 0,
    reusedTables: 0,
    usage: run.budget.usage,
    // One event per phase; the trace query has every step inside them.
    steps: run.runner.trace.filter((e) => e.stage === PREPARATION_STAGE),
    activityMs: run.activityMs,
    ...extra,
  };
}
