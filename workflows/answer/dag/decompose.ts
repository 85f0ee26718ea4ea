import { validateDag } from '../../../core/dag/validate-dag';
import type { SubQuestionDag } from '../../../core/dag/sub-question-dag';
import { failureMessage } from '../../kit/step-runner';
import type { QuestionContext } from '../../../core/question/question-context';
import type { StageKit } from '../stage-kit';

export const STAGE = 'decomposition';

export interface Decomposition {
  dag: SubQuestionDag | null;
  examples: number;
  /** Proposals that failed validation, with the problem named. */
  rejected: { dag: unknown; problem: string }[];
}

/**
 * The decomposer (C.2) with its answer checked: an invalid graph (duplicate ids, an `@[n]` to no
 * node, a cycle, no root) goes back once with the problem named; a second invalid one, or a
 * failed call, leaves no graph and the run takes the direct path instead.
 */
export async function decompose(kit: StageKit, ctx: QuestionContext): Promise<Decomposition> {
  const rejected: Decomposition['rejected'] = [];
  let examples = 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const problem = rejected.at(-1)?.problem;
    let out;
    try {
      out = await kit.runner.paidStep(
        {
          stage: STAGE,
          name: 'decomposeQuestion',
          summary: problem ? `decomposer (C.2), asked again: ${problem}` : 'decomposer (C.2): the question as a DAG of sub-questions',
          llmCalls: 1,
        },
        (o) =>
          kit.llm.decomposeQuestion.executeWithOptions(o, [
            {
              ctx,
              examples: kit.config.decomposition.examples,
              temperature: kit.config.decomposition.temperature,
              ...(kit.config.decomposition.seedPlan ? { seedPlan: true } : {}),
              ...(problem ? { problem } : {}),
            },
          ]),
        (r) => ({
          outcome: `${summarizeProposal(r.proposed)}; ${r.examples ? `${r.examples} example(s) from the knowledge base` : r.seeded ? 'the seed plan (no example in the knowledge base)' : 'zero-shot (no decomposition knowledge base)'}`,
        }),
      );
    } catch (err) {
      kit.runner.note(STAGE, 'decomposeQuestion', 'the decomposer failed', { outcome: failureMessage(err) });
      return { dag: null, examples, rejected };
    }
    if (!out) return { dag: null, examples, rejected };
    examples = out.examples;
    const check = validateDag(out.proposed);
    if (check.ok) {
      if (check.notes.length) kit.runner.note(STAGE, 'validateDag', 'the graph is valid after normalisation', { outcome: check.notes.join('; ') });
      return { dag: check.dag, examples, rejected };
    }
    rejected.push({ dag: out.proposed, problem: check.problem });
    kit.runner.note(STAGE, 'validateDag', 'the graph is not a valid DAG', { outcome: check.problem });
  }
  return { dag: null, examples, rejected };
}

function summarizeProposal(raw: unknown): string {
  const r = raw as { nodes?: unknown[]; edges?: unknown[] } | null;
  return `${Array.isArray(r?.nodes) ? r!.nodes.length : 0} sub-questions, ${Array.isArray(r?.edges) ? r!.edges.length : 0} edges`;
}
