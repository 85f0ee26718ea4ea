import type { SubQuestionDag } from './sub-question-dag';

/** Where a node is in its life (the `dag` query shows it live). */
export type DagNodeState = 'waiting' | 'running' | 'done' | 'failed' | 'accepted-degraded' | 'skipped';

/** One node of the DAG in use, as the `dag` query and the final result show it. */
export interface DagNodeReport {
  id: number;
  question: string;
  /** The sub-question with each `@[n]` resolved (inline values or the relation's name). */
  resolvedQuestion?: string;
  state: DagNodeState;
  /** The execution wave it ran in (0 = the leaves). */
  wave?: number;
  sql?: string;
  columns?: string[];
  rowCount?: number;
  /** The first rows, for people; downstream nodes get the whole result. */
  preview?: unknown[][];
  /** How its result reaches downstream nodes. */
  passedAs?: 'inline' | 'relation';
  error?: string;
}

/** One version of the graph: the decomposer's, then each refinement (accepted or rejected). */
export interface DagRevision {
  dag: SubQuestionDag;
  /** decomposer, or the refiner with the node that failed. */
  origin: string;
  /** Why a proposed graph was not used (isomorphic, cycle, invalid); absent when it was used. */
  rejected?: string;
}

export interface DagReport {
  revisions: DagRevision[];
  /** The graph that produced the answer (the last accepted revision). */
  final: SubQuestionDag;
  nodes: DagNodeReport[];
  /** Accepted topology refinements, and proposals rejected (isomorphic or cyclic). */
  refinements: number;
  rejectedRefinements: number;
  /** True when the refinement budget ran out and a failing node's best result was accepted. */
  degraded: boolean;
  /** Examples retrieved from the decomposition knowledge base (0: zero-shot). */
  examples: number;
}
