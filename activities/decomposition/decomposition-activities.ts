import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import type { Embedder } from '../embeddings/embedder';
import type { VectorStore } from '../vectors/vector-store';
import { decomposeQuestion, type DecomposeInput } from './decompose-question';
import { executeNode, type ExecuteNodeInput } from './execute-node';
import { generateNodeSql, type GenerateNodeSqlInput } from './generate-node-sql';
import { forgetNodeResults } from './node-result-store';
import { refineTopology, type RefineTopologyInput } from './refine-topology';

/** DecoSearch's complex route, model side (`llm` queue): decomposer, per-node SQL, topology refiner. */
export function createDecompositionActivities(deps: QuestionLlmDeps & { vectors: VectorStore; embedder: Embedder }) {
  return {
    decomposeQuestion: (input: DecomposeInput) => decomposeQuestion(deps, input),
    generateNodeSql: (input: GenerateNodeSqlInput) => generateNodeSql(deps, input),
    refineTopology: (input: RefineTopologyInput) => refineTopology(deps, input),
  };
}

/** DecoSearch's complex route, database side (`online` queue): run a node, drop a run's stored results. */
export function createDagExecutionActivities(deps: { databases: DatabaseRegistry; store: ArtifactStore }) {
  return {
    executeNode: (input: ExecuteNodeInput) => executeNode(deps, input),
    forgetNodeResults: (input: { prefix: string }) => forgetNodeResults(deps.store, input.prefix),
  };
}
