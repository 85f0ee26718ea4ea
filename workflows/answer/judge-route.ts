import type { Judgement, Route } from '../../core/answer-question-types';
import type { QuestionContext } from '../../core/question/question-context';
import { failureMessage } from '../kit/step-runner';
import type { StageKit } from './stage-kit';

const STAGE = 'judging';

/** The route to take, and the judger's verdict when it gave one. */
export interface RouteDecision {
  route: Route;
  judgement?: Judgement;
}

/**
 * DecoSearch's judger (§3.4, C.1) decides between the direct path and decomposition (the complex
 * route), and returns the route to take. With decomposition switched off, a complex verdict takes
 * the direct path and the judgement and trace say so; with `decomposition.always`, every question is
 * decomposed without asking. A failed judger leaves the default, the direct path.
 */
export async function judgeRoute(kit: StageKit, ctx: QuestionContext): Promise<RouteDecision> {
  if (kit.config.decomposition.enabled && kit.config.decomposition.always) {
    kit.runner.note(STAGE, 'route', 'the judger is not asked', { outcome: 'decomposition.always: every question takes the complex route' });
    if (kit.config.judging.enabled) kit.runner.stageDone(STAGE);
    return { route: 'complex' };
  }
  if (!kit.config.judging.enabled) return { route: 'direct' };
  let decision: RouteDecision = { route: 'direct' };
  try {
    const verdict = await kit.runner.paidStep(
      { stage: STAGE, name: 'judgeComplexity', summary: 'judger: direct SQL or decomposition?', llmCalls: 1 },
      (o) => kit.llm.judgeComplexity.executeWithOptions(o, [ctx]),
      (r) => ({ outcome: `${r.needsDecomposition ? 'complex' : 'direct'}: ${r.reasoning}` }),
    );
    if (verdict) {
      const override =
        verdict.needsDecomposition && !kit.config.decomposition.enabled
          ? 'decomposition is switched off in this configuration: the direct path answers'
          : undefined;
      const judgement: Judgement = { needsDecomposition: verdict.needsDecomposition, reasoning: verdict.reasoning, ...(override ? { override } : {}) };
      if (override) kit.runner.note(STAGE, 'route', 'judged complex', { outcome: override });
      decision = { route: verdict.needsDecomposition && !override ? 'complex' : 'direct', judgement };
    }
  } catch (err) {
    kit.runner.note(STAGE, 'route', 'the judger failed', { outcome: `direct path by default: ${failureMessage(err)}` });
  }
  kit.runner.stageDone(STAGE);
  return decision;
}
