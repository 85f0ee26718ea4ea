export { parseQuestionTree } from './parse-question-tree';
export { renderQuestionTree } from './render-question-tree';
export type { NodeRole, TreeNode } from './tree-nodes';
export type { Aggregate, AggregateFunction, Filter, FilterOperator, LiteralKind, Ordering, Projection, QuestionLiteral, QuestionTree } from './question-tree';
