import { sharedSqlAnalyzer } from '../../activities/sql/shared-analyzer';
import { unusableDecomposition } from '../../core/knowledge/decomposition-quality';

/** Which correct answers' DAGs become decomposition examples: sub-questions, not queries (core/knowledge/decomposition-quality.ts). */
describe('decomposition examples are plans of sub-questions', () => {
  const dag = (...questions: string[]) => ({ nodes: questions.map((question, id) => ({ id, question })), edges: [] as [number, number][] });

  it('refuses a DAG with a node written as SQL, names the nodes, and keeps questions that merely start with "Select"', async () => {
    const analyzer = await sharedSqlAnalyzer();
    const isSql = (text: string) => analyzer.analyze(text, 'sqlite').ok;
    expect(unusableDecomposition(dag('SELECT count(*) FROM city', 'the number of cities'), isSql)).toBe('node 0 is SQL, not a sub-question');
    expect(unusableDecomposition(dag('Which cities are in @[1]?', 'WITH t AS (SELECT 1) SELECT * FROM t', 'select id from farm'), isSql)).toBe(
      'nodes 1, 2 are SQL, not a sub-question',
    );
    expect(unusableDecomposition(dag('Select the names of the students from Texas', 'What is the average age of the students in @[0]?'), isSql)).toBeNull();
    expect(unusableDecomposition(dag(), isSql)).toBe('the DAG has no node');
  });
});
