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
 * Multi-path generation (DexterSQL §3.3.2; DecoSearch's direct path is the one-path case): every
 * configured path writes one candidate, in parallel. A path that cannot run (few-shot without
 * examples) is skipped and says so; a path whose model call fails is recorded and the others
 * go on. `dagAnswered`: the complex route gave a candidate, which replaces the direct path;
 * `fewShotExamples`: how many solved examples are stored. Returns one candidate per path that wrote SQL.
 */
export async function generateCandidates(
  kit: StageKit,
  ctx: QuestionContext,
  { dagAnswered, fewShotExamples }: { dagAnswered: boolean; fewShotExamples: number },
): Promise<WorkingCandidate[]> {
  const paths = kit.config.generation.paths.filter((path) => {
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
