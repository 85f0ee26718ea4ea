import type { QuestionContext } from '../../core/question/question-context';
import { generateDependencyTree } from './generate-dependency-tree';
import { generateDirect } from './generate-direct';
import { generateDivideAndConquer } from './generate-divide-and-conquer';
import { generateFewShot } from './generate-few-shot';
import type { VectorStore } from '../vectors/vector-store';
import type { QuestionLlmDeps } from './generation-deps';

/** The generation paths (DecoSearch's direct path, DexterSQL's three), one activity each, on the `llm` queue. */
export function createGenerationActivities(deps: QuestionLlmDeps & { vectors: VectorStore }) {
  return {
    generateSqlDirect: (ctx: QuestionContext) => generateDirect(deps, ctx),
    generateSqlDependencyTree: (ctx: QuestionContext) => generateDependencyTree(deps, ctx),
    generateSqlFewShot: (ctx: QuestionContext) => generateFewShot(deps, ctx),
    generateSqlDivideAndConquer: (ctx: QuestionContext) => generateDivideAndConquer(deps, ctx),
  };
}

export type GenerationActivities = ReturnType<typeof createGenerationActivities>;
