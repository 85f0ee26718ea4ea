import type { SubQuestionDag } from '../dag/sub-question-dag';

/**
 * Why a correct answer's DAG is no example for the decomposer (null: it is one). DecoSearch's
 * knowledge base holds question–sub-question pairs (§3.5). A small model often answers the
 * decomposer with the whole query as one node and the question restated as another: the answer is
 * right because the query is, but stored, that "plan" would teach the decomposer to write SQL where
 * a sub-question belongs (all 26 the 1.5B model produced on 55 Spider train questions were so).
 * `isSql` says whether a text parses as a query: "Select the names of students from Texas" is a
 * sub-question, "SELECT name FROM student" is not.
 */
export function unusableDecomposition(dag: SubQuestionDag, isSql: (text: string) => boolean): string | null {
  if (!dag.nodes.length) return 'the DAG has no node';
  const sql = dag.nodes.filter((n) => isSql(n.question)).map((n) => n.id);
  if (sql.length) return `${sql.length > 1 ? 'nodes' : 'node'} ${sql.join(', ')} ${sql.length > 1 ? 'are' : 'is'} SQL, not a sub-question`;
  return null;
}
