/**
 * DecoSearch's decomposition (§3.5, appendix C.2): a question becomes a DAG of sub-questions.
 * A node's text names an upstream node's result with the placeholder `@[n]`; an edge
 * `[parent, child]` says that `parent` needs the result of `child`. Node 0 is the root: its
 * result is the answer to the whole question.
 */
export interface SubQuestionNode {
  id: number;
  question: string;
}

export interface SubQuestionDag {
  nodes: SubQuestionNode[];
  /** [parent, child]: the parent depends on the child (the paper's orientation). */
  edges: [number, number][];
}
