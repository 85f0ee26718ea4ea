import type { DecompositionExample } from '../../core/knowledge/knowledge-types';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import type { Embedder } from '../embeddings/embedder';
import type { VectorStore } from '../vectors/vector-store';
import { retrieveDecompositionExamples } from '../knowledge/decomposition-examples';
import { askModel } from '../prompts/ask-model';
import { loadSharedText } from '../prompts/render-prompt';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface DecomposeInput {
  ctx: QuestionContext;
  /** Past decompositions to show (k); 0 or an empty knowledge base: zero-shot. */
  examples: number;
  /** The problem with the previous answer, when the decomposer is asked again. */
  problem?: string;
  /** Sampling temperature of this call (the pipeline's decomposition.temperature). */
  temperature: number;
  /** Show the worked seed plan when the knowledge base gives no example (the pipeline's decomposition.seedPlan). */
  seedPlan?: boolean;
}

export interface DecomposeOutput {
  /** The graph as the model wrote it; the workflow validates it. */
  proposed: unknown;
  examples: number;
  /** The seed plan was shown (no example came from the knowledge base). */
  seeded: boolean;
  usage: LlmCallUsage;
}

/**
 * DecoSearch's decomposer (§3.5, C.2): the question, its pruned schema and hint become a DAG of
 * sub-questions, with the k most similar successful decompositions as demonstrations when the
 * knowledge base has them. Without any, `seedPlan` shows a worked plan on a made-up database
 * (prompts/shared/decomposition-seed-plan.md): the knowledge base's builder turns it on, because a
 * zero-shot small model writes SQL where its plan needs sub-questions in words, and the base stores
 * only plans in words, so without a first example it would never store one.
 */
export async function decomposeQuestion(deps: QuestionLlmDeps & { vectors: VectorStore; embedder: Embedder }, input: DecomposeInput): Promise<DecomposeOutput> {
  const examples = await retrieveDecompositionExamples(deps, input.ctx.question, input.examples, input.ctx.withholdExamplesOf);
  const vars = await questionPromptVars(deps, input.ctx);
  const retry = input.problem ? `\n\nYour previous plan could not be used: ${input.problem}. Write a corrected plan.` : '';
  const seeded = !examples.length && input.seedPlan === true;
  const answer = await askModel(
    deps.llm,
    'decompose-question',
    { ...vars, examples: seeded ? `${loadSharedText('decomposition-seed-plan')}\n` : examplesBlock(examples), question: vars.question + retry },
    { temperature: input.temperature },
  );
  return { proposed: answer.value, examples: examples.length, seeded, usage: answer.usage };
}

function examplesBlock(examples: DecompositionExample[]): string {
  if (!examples.length) return '';
  const shown = examples.map((e, i) => `Example ${i + 1}\nQuestion: ${e.question}${e.evidence ? `\nHint: ${e.evidence}` : ''}\nPlan: ${JSON.stringify(e.dag)}`);
  return `Plans that answered similar questions correctly:\n${shown.join('\n\n')}\n`;
}
