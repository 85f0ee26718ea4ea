import { setHandler } from '@temporalio/workflow';
import type { DagNodeReport, DagNodeState, DagReport } from '../../../core/dag/dag-report';
import type { NodeRun } from '../../../core/dag/node-results';
import type { SubQuestionDag } from '../../../core/dag/sub-question-dag';
import { dagQuery } from '../../queries';

/**
 * The complex route's report, kept live: the `dag` query returns it while the DAG runs (every
 * revision, each node's state, SQL, row count and first rows) and the result carries it.
 */
export class DagState {
  readonly report: DagReport;

  constructor(dag: SubQuestionDag, examples: number, rejected: { dag: unknown; problem: string }[]) {
    this.report = {
      revisions: [...rejected.map((r) => ({ dag: asDag(r.dag), origin: 'decomposer', rejected: r.problem })), { dag, origin: 'decomposer' }],
      final: dag,
      nodes: [],
      refinements: 0,
      rejectedRefinements: 0,
      degraded: false,
      examples,
    };
    this.useGraph(dag, new Set());
    setHandler(dagQuery, () => this.report);
  }

  /** A new graph is in use: kept nodes stay as they were, the others wait. */
  useGraph(dag: SubQuestionDag, kept: Set<number>): void {
    const before = new Map(this.report.nodes.map((n) => [n.id, n]));
    this.report.final = dag;
    this.report.nodes = dag.nodes.map((n) =>
      kept.has(n.id) && before.get(n.id) ? before.get(n.id)! : { id: n.id, question: n.question, state: 'waiting' as DagNodeState },
    );
  }

  proposal(dag: unknown, origin: string, rejected?: string): void {
    this.report.revisions.push({ dag: asDag(dag), origin, ...(rejected ? { rejected } : {}) });
    if (rejected) this.report.rejectedRefinements++;
    else this.report.refinements++;
  }

  update(id: number, patch: Partial<DagNodeReport>): void {
    const node = this.report.nodes.find((n) => n.id === id);
    if (node) Object.assign(node, patch);
  }

  ran(id: number, run: NodeRun, state: DagNodeState): void {
    this.update(id, {
      state,
      sql: run.resolvedSql,
      ...(run.result ? { columns: run.result.columns, rowCount: run.result.rowCount, passedAs: run.result.passedAs } : {}),
      preview: run.preview,
      ...(run.error ? { error: run.error } : { error: undefined }),
    });
  }
}

/** A proposal as far as it is a graph (a rejected one may be anything the model wrote). */
function asDag(raw: unknown): SubQuestionDag {
  const r = (raw ?? {}) as Partial<SubQuestionDag>;
  return { nodes: Array.isArray(r.nodes) ? r.nodes : [], edges: Array.isArray(r.edges) ? r.edges : [] };
}
