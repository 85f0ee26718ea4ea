import type { CandidatePair } from '../../core/exploration/pair-types';
import { mapWithConcurrency } from '../../core/map-with-concurrency';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';
import { batchByWork } from '../../core/preparation/work-batches';
import { describeBatch, runPhase, type PreparationRun } from './preparation-run';

/** What Steps 1–3 of the explorator found: the candidates, and those the model confirmed ambiguous. */
export interface ExploredPairs {
  candidates: CandidatePair[];
  confirmed: CandidatePair[];
}

/**
 * The deep schema explorator (§3.1.3), Steps 1–3: candidate pairs by name and profile similarity;
 * LLM triage of each within the call and token budget; statistics of the confirmed pairs by SQL.
 * Without a model (`exploration.useLlm` off) triage is skipped, every candidate is measured, and
 * none is called confirmed.
 */
export async function explorePairs(run: PreparationRun, inspection: DatabaseInspection): Promise<ExploredPairs> {
  const candidates = await findCandidates(run, inspection);
  const confirmed = run.config.exploration.useLlm ? await triage(run, inspection, candidates) : [];
  await measure(run, inspection, run.config.exploration.useLlm ? confirmed : candidates);
  return { candidates, confirmed };
}

async function findCandidates(run: PreparationRun, inspection: DatabaseInspection): Promise<CandidatePair[]> {
  const { databaseId, versions } = inspection;
  const found = await runPhase(
    run,
    'candidates',
    { total: 1, detail: 'name and profile similarity' },
    () =>
      run.runner.step({ stage: 'candidates', name: 'findCandidatePairs', summary: 'step 1: candidate pairs by name tokens and profile similarity' }, (o) =>
        run.offline.findCandidatePairs.executeWithOptions(o, [{ databaseId, versions, config: run.config.exploration }]),
      ),
    (f) => `${f.candidates.length} candidates of ${f.compared} pairs compared${f.cut ? `, ${f.cut} cut by maxCandidatePairs` : ''}`,
  );
  return found.candidates;
}

/** Step 2: three prompts per pair, majority vote; a pair the budget refuses is left untriaged. */
async function triage(run: PreparationRun, inspection: DatabaseInspection, candidates: CandidatePair[]): Promise<CandidatePair[]> {
  const confirmed: CandidatePair[] = [];
  let triaged = 0;
  await runPhase(
    run,
    'triage',
    { total: candidates.length, detail: 'three prompts per pair, majority vote' },
    () =>
      mapWithConcurrency(candidates, run.limits.parallelLlmCalls, async (pair) => {
        const outcome = await run.runner.paidStep(
          {
            stage: 'triage',
            name: 'triageAmbiguousPair',
            summary: `step 2: is ${pair.a.table}.${pair.a.column} / ${pair.b.table}.${pair.b.column} ambiguous? (3 prompts)`,
            llmCalls: 3,
          },
          (o) =>
            run.llm.triageAmbiguousPair.executeWithOptions(o, [
              {
                databaseId: inspection.databaseId,
                versions: inspection.versions,
                dialect: inspection.dialect,
                pair,
                maxJoinHops: run.config.exploration.maxJoinHops,
              },
            ]),
          (t) => ({ outcome: t.ambiguous ? 'ambiguous' : 'not ambiguous' }),
        );
        if (!outcome) return;
        if (outcome.ambiguous) confirmed.push(pair);
        run.progress.update({ done: ++triaged, detail: `${confirmed.length} confirmed so far` });
      }),
    () =>
      `${confirmed.length} of ${triaged} triaged pairs confirmed ambiguous${triaged < candidates.length ? ` (${candidates.length - triaged} not triaged: budget)` : ''}`,
  );
  return confirmed.sort((x, y) => x.id.localeCompare(y.id));
}

/** Step 3: deep investigation in plain SQL, no model; pairs in batches as tables are. */
async function measure(run: PreparationRun, inspection: DatabaseInspection, pairs: CandidatePair[]): Promise<void> {
  const { input, limits } = run;
  const rowsOf = new Map(inspection.tables.map((t) => [t.name, t.rowCount]));
  const batches = batchByWork(pairs, (p) => (rowsOf.get(p.a.table) ?? 0) + (rowsOf.get(p.b.table) ?? 0), limits.valuesPerActivity);
  let measured = 0;
  await runPhase(
    run,
    'statistics',
    { total: pairs.length, detail: 'overlap, coverage, fan-out, agreement' },
    () =>
      mapWithConcurrency(batches, limits.parallelTables, async (batch) => {
        const names = describeBatch(batch.map((p) => p.id));
        const evidence = await run.runner.step({ stage: 'statistics', name: 'measurePairStatistics', summary: `step 3: statistics of ${names}` }, (o) =>
          run.offline.measurePairStatistics.executeWithOptions(o, [
            {
              database: input.database,
              databaseId: inspection.databaseId,
              versions: inspection.versions,
              pairs: batch,
              config: run.config.exploration,
              queryTimeoutMs: limits.queryTimeoutMs,
            },
          ]),
        );
        measured += batch.length;
        run.progress.update({ done: measured, detail: `measured ${names}` });
        return evidence;
      }),
    (batches) => {
      const all = batches.flat();
      return `${all.length} pairs measured in ${batches.length} activities, ${all.filter((e) => e.join).length} with a join path`;
    },
  );
}
