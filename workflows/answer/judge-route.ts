import type { Route } from '../../core/answer-question-types';
import { failureMessage } from '../kit/step-runner';
import type { QuestionRun } from './question-run';

const STAGE = 'judging';

/**
 * DecoSearch's judger (§3.4, C.1) decides between the direct path and decomposition (the complex
 * route), and returns the route to take. With decomposition switched off, a complex verdict takes
 * the direct path and the result and trace say so; with `decomposition.always`, every question is
 * decomposed without asking. A failed judger leaves the default, the direct path.
 */
export async function judgeRoute(run: QuestionRun): Promise<Route> {
  if (run.config.decomposition.enabled && run.config.decomposition.always) {
    run.runner.note(STAGE, 'route', 'the judger is not asked', { outcome: 'decomposition.always: every question takes the complex route' });
    if (run.config.judging.enabled) run.runner.stageDone(STAGE);
    return 'complex';
  }
  if (!run.config.judging.enabled) return 'direct';
  let route: Route = 'direct';
  const ctx = run.ctx;
  try {
    const verdict = await run.runner.paidStep(
      { stage: STAGE, name: 'judgeComplexity', summary: 'judger: direct SQL or decomposition?', llmCalls: 1 },
      (o) => run.llm.judgeComplexity.executeWithOptions(o, [ctx]),
      (r) => ({ outcome: `${r.needsDecomposition ? 'complex' : 'direct'}: ${r.reasoning}` }),
    );
    if (verdict) {
      const override =
        verdict.needsDecomposition && !run.config.decomposition.enabled
          ? 'decomposition is switched off in this configuration: the direct path answers'
          : undefined;
      run.judgement = { needsDecomposition: verdict.needsDecomposition, reasoning: verdict.reasoning, ...(override ? { override } : {}) };
      if (override) run.runner.note(STAGE, 'route', 'judged complex', { outcome: override });
      else if (verdict.needsDecomposition) route = 'complex';
    }
  } catch (err) {
    run.runner.note(STAGE, 'route', 'the judger failed', { outcome: `direct path by default: ${failureMessage(err)}` });
  }
  run.runner.stageDone(STAGE);
  return route;
}
