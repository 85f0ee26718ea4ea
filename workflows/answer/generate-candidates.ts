import type { GenerationPath } from '../../core/pipeline/pipeline-config';
import type { QuestionContext } from '../../core/question/question-context';
import type { GenerationActivities } from '../../activities/generation/generation-activities';
import type { StageKit } from './stage-kit';
import type { WorkingCandidate } from './working-candidate';

const STAGE = 'generation';

const PATHS: Record<GenerationPath, { activity: keyof GenerationActivities; summary: string }> = {
  direct: { activity: 'generateSqlDirect', summary: 'direct path (C.3): one zero-temperature SQL' },
  'dependency-tree': { activity: 'generateSqlDependencyTree', summary: 'dependency-tree IR → SQL skeleton → SQL' },
  'few-shot': { activity: 'generateSqlFewShot', summary: 'few-shot: structurally similar solved examples → SQL' },
  'divide-and-conquer': { activity: 'generateSqlDivideAndConquer', summary: 'divide and conquer: sub-questions → partial SQL → one query' },
};

/**
 * The configured paths that can write a candidate in this run, in order. `dagAnswered`: the complex
 * route gave a candidate, which replaces the direct path; `fewShotExamples`: how many solved
 * examples are stored (none: the few-shot path cannot run). A skipped path says why in the trace.
 */
export function runnablePaths(kit: StageKit, { dagAnswered, fewShotExamples }: { dagAnswered: boolean; fewShotExamples: number }): GenerationPath[] {
  return kit.config.generation.paths.filter((path) => {
    if (path === 'direct' && dagAnswered) {
      // The judger chose decomposition over the direct path (Algorithm 1): the DAG's root answers instead.
      kit.runner.note(STAGE, PATHS[path].activity, PATHS[path].summary, {
        skipped: 'the question took the complex route; its sub-question DAG replaces the direct path',
      });
      return false;
    }
    if (path === 'few-shot' && fewShotExamples === 0) {
      kit.runner.note(STAGE, PATHS[path].activity, PATHS[path].summary, { skipped: 'no few-shot examples are stored (the learning step builds them)' });
      return false;
    }
    return true;
  });
}

/**
 * Multi-path generation (DexterSQL §3.3.2; DecoSearch's direct path is the one-path case): each
 * of `paths` writes one candidate, in parallel. A path whose model call fails is recorded and the
 * others go on. Returns one candidate per path that wrote SQL, in the order of `paths`.
 */
export async function generateCandidates(kit: StageKit, ctx: QuestionContext, paths: GenerationPath[]): Promise<WorkingCandidate[]> {
  const results = await Promise.all(
    paths.map((path) =>
      kit.runner
        .paidStep(
          { stage: STAGE, name: PATHS[path].activity, summary: PATHS[path].summary, llmCalls: 1 },
          (o) => kit.llm[PATHS[path].activity].executeWithOptions(o, [ctx]),
          (r) => ({
            outcome: r.sql,
            detail: { reasoning: r.reasoning, ...(r.context ? { context: r.context } : {}) },
          }),
        )
        .then((r) => (r ? { path, sql: r.sql } : null))
        .catch(() => null),
    ),
  );
  kit.runner.stageDone(STAGE);
  return results.filter((r) => r !== null).map((r) => ({ path: r.path, generatedSql: r.sql, sql: r.sql, corrections: [], diagnosis: null }));
}

/** The trace note of paths left unasked because the first ones agreed. */
export function noteUnaskedPaths(kit: StageKit, paths: GenerationPath[], quorum: number): void {
  for (const path of paths)
    kit.runner.note(STAGE, PATHS[path].activity, PATHS[path].summary, {
      skipped: `the first ${quorum} paths' candidates run to the same result, which wins selection whatever this path writes (generation.stopOnAgreement)`,
    });
}
