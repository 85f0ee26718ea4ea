import { DagState } from './dag/dag-state';
import { decompose, STAGE } from './dag/decompose';
import { nodeResultPrefix, solveDag } from './dag/solve-dag';
import type { QuestionRun } from './question-run';
import type { WorkingCandidate } from './working-candidate';

/** The candidate path name of the complex route's answer. */
export const DAG_PATH = 'sub-question-dag';

/**
 * DecoSearch's complex route (§3.5–3.7, Algorithm 1 steps 3–4): decompose the question into a
 * DAG of sub-questions, solve it wave by wave with topology refinement, and return the root's
 * self-contained SQL as a candidate (correction and selection follow as for every candidate).
 * Returns null when no graph or no root SQL could be had; the direct path then answers.
 */
export async function solveByDecomposition(run: QuestionRun, why: string): Promise<WorkingCandidate | null> {
  run.runner.planStage();
  run.decomposed = true;
  run.runner.note(STAGE, 'route', 'the complex route', { outcome: why });
  const decomposition = await decompose(run);
  if (!decomposition.dag) {
    const reason = decomposition.rejected.length ? `the decomposer gave no valid graph (${decomposition.rejected.at(-1)!.problem})` : 'no decomposition';
    run.runner.note(STAGE, 'fallback', 'back to the direct path', { outcome: reason });
    if (run.judgement) run.judgement = { ...run.judgement, override: `${reason}: the direct path answers` };
    run.runner.stageDone(STAGE);
    return null;
  }
  const state = new DagState(decomposition.dag, decomposition.examples, decomposition.rejected);
  run.dag = state.report;
  const root = await solveDag(run, state, decomposition.dag);
  // Node results are the run's working data: they go once the root's SQL is composed.
  await run.runner
    .step(
      { stage: STAGE, name: 'forgetNodeResults', summary: "remove this run's stored node results" },
      (o) => run.online.forgetNodeResults.executeWithOptions(o, [{ prefix: nodeResultPrefix() }]),
      (n) => ({ outcome: `${n} removed` }),
    )
    .catch(() => undefined);
  run.runner.stageDone(STAGE);
  if (!root?.composedSql) {
    // Not even degraded results gave the root a query (its SQL was never written): the direct path answers.
    run.runner.note(STAGE, 'fallback', 'back to the direct path', { outcome: 'the sub-question DAG produced no SQL for its root' });
    return null;
  }
  return { path: DAG_PATH, generatedSql: root.sql, sql: root.composedSql, corrections: [], diagnosis: null };
}
