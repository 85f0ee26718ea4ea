import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import type { CandidateMismatch, FailureExplanation } from '../../core/mining/mining-types';
import type { StepRunner } from '../kit/step-runner';
import type { miningActivities } from './mining-proxies';

const STAGE = 'mining';

/**
 * DexterSQL §3.1.4 Steps 1–2 for one training question's wrong candidates: the model explains
 * each mismatch (one explanation per problem), then judges each explanation database-agnostic or
 * not. An explanation the question's budget left unjudged is kept as database-specific, since
 * only agnostic failures make rules. Sorted by id, so a rerun stores the same record.
 */
export async function explainMismatches(
  runner: StepRunner,
  llm: ReturnType<typeof miningActivities>['llm'],
  q: BenchmarkQuestion,
  mismatches: CandidateMismatch[],
): Promise<FailureExplanation[]> {
  const explained = await Promise.all(
    mismatches.map((mismatch) =>
      runner.paidStep(
        { stage: STAGE, name: 'explainFailure', summary: `why the ${mismatch.path} candidate fails (${mismatch.verdict})`, llmCalls: 1 },
        (o) => llm.explainFailure.executeWithOptions(o, [{ question: q, mismatch }]),
        (r) => ({ outcome: `${r.explanations.length} problem(s)` }),
      ),
    ),
  );
  runner.stageDone('explain');

  const explanations: FailureExplanation[] = [];
  await Promise.all(
    mismatches.flatMap((mismatch, m) =>
      (explained[m]?.explanations ?? []).map(async (text, e) => {
        const id = `q${q.index}.c${mismatch.candidate}.e${e}`;
        const judged = await runner.paidStep(
          { stage: STAGE, name: 'isolateFailure', summary: `is ${id} database-agnostic?`, llmCalls: 1 },
          (o) => llm.isolateFailure.executeWithOptions(o, [{ question: q.question, explanation: text }]),
          (r) => ({ outcome: r.agnostic ? 'database-agnostic' : 'database-specific' }),
        );
        explanations.push({
          id,
          path: mismatch.path,
          text,
          agnostic: judged?.agnostic ?? false,
          reason: judged?.reason ?? 'not judged (budget)',
          // Absent from a mismatch found by a worker older than the field (a resumed job).
          ...(mismatch.differences ? { differences: mismatch.differences } : {}),
          pair: { sql: mismatch.sql, gold: q.goldSql },
        });
      }),
    ),
  );
  runner.stageDone('isolate');
  return explanations.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
