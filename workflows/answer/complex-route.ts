import type { DagReport } from '../../core/dag/dag-report';
import type { QuestionContext } from '../../core/question/question-context';
import { DagState } from './dag/dag-state';
import { decompose, STAGE } from './dag/decompose';
import { nodeResultPrefix, solveDag } from './dag/solve-dag';
import type { StageKit } from './stage-kit';
import type { WorkingCandidate } from './working-candidate';

/** The candidate path name of the complex route's answer. */
export const DAG_PATH = 'sub-question-dag';

/** What the complex route produced: its answer if any, its DAG report if it had a graph, or why it had none. */
export interface ComplexRouteOutcome {
  answer: WorkingCandidate | null;
  /** The sub-question DAG as it ran (live: the `dag` query reads the same object). */
  dag?: DagReport;
  /** Why no graph was had (the decomposer failed or gave none that is valid); absent when one was. */
  noGraph?: string;
}

/**
 * DecoSearch's complex route (§3.5–3.7, Algorithm 1 steps 3–4): decompose the question into a
 * DAG of sub-questions, solve it wave by wave with topology refinement, and return the root's
 * self-contained SQL as a candidate (correction and selection follow as for every candidate).
 * The answer is null when no graph or no root SQL could be had; the direct path then answers.
 * `why`: what sent the question here, for the trace.
 */
export async function solveByDecomposition(kit: StageKit, ctx: QuestionContext, why: string): Promise<ComplexRouteOutcome> {
  kit.runner.planStage();
  kit.runner.note(STAGE, 'route', 'the complex route', { outcome: why });
  const decomposition = await decompose(kit, ctx);
  if (!decomposition.dag) {
    const reason = decomposition.rejected.length ? `the decomposer gave no valid graph (${decomposition.rejected.at(-1)!.problem})` : 'no decomposition';
    kit.runner.note(STAGE, 'fallback', 'back to the direct path', { outcome: reason });
    kit.runner.stageDone(STAGE);
    return { answer: null, noGraph: reason };
  }
  const state = new DagState(decomposition.dag, decomposition.examples, decomposition.rejected);
  const root = await solveDag(kit, ctx, state, decomposition.dag);
  // Node results are the run's working data: they go once the root's SQL is composed.
  await kit.runner
    .step(
      { stage: STAGE, name: 'forgetNodeResults', summary: "remove this run's stored node results" },
      (o) => kit.online.forgetNodeResults.executeWithOptions(o, [{ prefix: nodeResultPrefix() }]),
      (n) => ({ outcome: `${n} removed` }),
    )
    .catch(() => undefined);
  kit.runner.stageDone(STAGE);
  if (!root?.composedSql) {
    // Not even degraded results gave the root a query (its SQL was never written): the direct path answers.
    kit.runner.note(STAGE, 'fallback', 'back to the direct path', { outcome: 'the sub-question DAG produced no SQL for its root' });
    return { answer: null, dag: state.report };
  }
  return { answer: { path: DAG_PATH, generatedSql: root.sql, sql: root.composedSql, corrections: [], diagnosis: null }, dag: state.report };
}
