import type { SubQuestionDag } from '../../core/dag/sub-question-dag';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { askModel } from '../prompts/ask-model';

export interface RefineTopologyInput {
  question: string;
  /** The question's hint (Algorithm 4's E: the refiner sees the evidence the decomposer saw). */
  evidence?: string;
  dag: SubQuestionDag;
  failedNode: number;
  failure: string;
  /** Nodes that ran successfully (the refiner keeps them). */
  completed: number[];
  /** Earlier proposals for this failure and why each was rejected (the model must not repeat them). */
  rejected: { dag: unknown; reason: string }[];
}

export interface RefineTopologyOutput {
  proposed: unknown;
  usage: LlmCallUsage;
}

/** DecoSearch's topology refiner (§3.7, C.5): the current graph and the failure in, a revised graph out (the workflow validates it). */
export async function refineTopology(deps: QuestionLlmDeps, input: RefineTopologyInput): Promise<RefineTopologyOutput> {
  const node = input.dag.nodes.find((n) => n.id === input.failedNode);
  const answer = await askModel(deps.llm, 'refine-topology', {
    question: input.question,
    evidence: input.evidence?.trim() || '(none)',
    graph: JSON.stringify(input.dag),
    completed: input.completed.length ? input.completed.join(', ') : '(none)',
    failed_node: String(input.failedNode),
    sub_question: node?.question ?? '(unknown)',
    failure: input.failure,
    rejected: input.rejected.length
      ? `\nRevisions already proposed for this failure and rejected:\n${input.rejected.map((r) => `- ${JSON.stringify(r.dag)} (rejected: ${r.reason})`).join('\n')}\n`
      : '',
  });
  return { proposed: answer.value, usage: answer.usage };
}
