import { failureMessage } from '../kit/step-runner';
import type { QuestionRun } from './question-run';

const STAGE = 'judging';

/**
 * DecoSearch's judger (§3.4, C.1) decides between the direct path and decomposition. The complex
 * route (the sub-question DAG) is not part of this build: a complex verdict takes the direct path
 * and the result and trace say so. A failed judger leaves the default, the direct path.
 */
export async function judgeRoute(run: QuestionRun): Promise<void> {
  if (!run.config.judging.enabled) return;
  const ctx = run.ctx;
  try {
    const verdict = await run.runner.paidStep(
      { stage: STAGE, name: 'judgeComplexity', summary: 'judger: direct SQL or decomposition?', llmCalls: 1 },
      (o) => run.llm.judgeComplexity.executeWithOptions(o, [ctx]),
      (r) => ({ outcome: `${r.needsDecomposition ? 'complex' : 'direct'}: ${r.reasoning}` }),
    );
    if (verdict) {
      const override = verdict.needsDecomposition ? 'the complex route (sub-question DAG) is not available in this build: the direct path answers' : undefined;
      run.judgement = { needsDecomposition: verdict.needsDecomposition, reasoning: verdict.reasoning, ...(override ? { override } : {}) };
      if (override) run.runner.note(STAGE, 'route', 'judged complex', { outcome: override });
    }
  } catch (err) {
    run.runner.note(STAGE, 'route', 'the judger failed', { outcome: `direct path by default: ${failureMessage(err)}` });
  }
  run.route = 'direct';
  run.runner.stageDone(STAGE);
}
