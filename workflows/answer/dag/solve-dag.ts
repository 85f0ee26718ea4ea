import { workflowInfo } from '@temporalio/workflow';
import { isSamePlan, unchangedNodes } from '../../../core/dag/dag-changes';
import type { NodeResultRef, NodeRun } from '../../../core/dag/node-results';
import type { SubQuestionDag } from '../../../core/dag/sub-question-dag';
import { dependenciesOf, topologicalWaves, upstreamOf } from '../../../core/dag/topological-waves';
import { ROOT_NODE, validateDag } from '../../../core/dag/validate-dag';
import { failureMessage, failureType } from '../../kit/step-runner';
import type { QuestionContext } from '../../../core/question/question-context';
import type { StageKit } from '../stage-kit';
import type { DagState } from './dag-state';
import { STAGE } from './decompose';

/** Rows kept of one node's result (a larger relation is cut, and the node's report says so). */
export const NODE_MAX_ROWS = 10_000;
const SUMMARY_CHARS = 160;

/**
 * Algorithm 1's hierarchical control (DecoSearch §3.6–3.7): the DAG runs in topological waves,
 * the nodes of a wave in parallel, each one SQL from the model and one read-only execution with
 * its inputs resolved. When a node fails (SQL that does not run; with `refineOn:
 * 'errors-and-empty'` also no rows or only NULLs), the topology refiner revises the graph; a
 * revision that is the same plan or has a cycle is rejected and counted. Execution resumes with
 * the results of unchanged nodes kept. A rejected proposal (Algorithm 1 lines 23–29), or B
 * refiner calls spent with `retryRejected`, accepts each failing node's best result and the nodes
 * downstream go on (graceful degradation).
 * Returns the root's run, or null when a budget stopped the route.
 */
export async function solveDag(kit: StageKit, ctx: QuestionContext, state: DagState, first: SubQuestionDag): Promise<NodeRun | null> {
  const solver = new DagSolver(kit, ctx, state, first);
  return solver.solve();
}

/** The key prefix of every node result this workflow run stores (removed when the route ends). */
export function nodeResultPrefix(): string {
  const info = workflowInfo();
  return `${info.workflowId}/${info.runId}/`;
}

class DagSolver {
  private current: SubQuestionDag;
  /** Results downstream nodes build on, by node id, for the graph in use. */
  private results = new Map<number, NodeResultRef>();
  /** Each node's best run so far (the degraded answer when refinements run out). */
  private best = new Map<number, NodeRun>();
  private attempts = new Map<number, number>();
  private refinerCalls = 0;
  private readonly keyPrefix: string;

  constructor(
    private readonly kit: StageKit,
    private readonly ctx: QuestionContext,
    private readonly state: DagState,
    dag: SubQuestionDag,
  ) {
    this.current = dag;
    this.keyPrefix = nodeResultPrefix();
  }

  async solve(): Promise<NodeRun | null> {
    for (;;) {
      const needed = upstreamOf(this.current, ROOT_NODE);
      for (const n of this.current.nodes) if (!needed.has(n.id)) this.state.update(n.id, { state: 'skipped' });
      const revised = await this.runWaves(needed);
      if (revised === 'stopped') return null;
      if (revised === 'done') return this.best.get(ROOT_NODE) ?? null;
      // A refinement was accepted: keep what still holds and run the rest of the new graph.
      const kept = new Set([...unchangedNodes(this.current, revised)].filter((id) => this.results.has(id)));
      this.results = new Map([...this.results].filter(([id]) => kept.has(id)));
      this.best = new Map([...this.best].filter(([id]) => kept.has(id)));
      this.current = revised;
      this.state.useGraph(revised, kept);
      this.kit.runner.note(STAGE, 'resume', 'execution resumes on the revised graph', {
        outcome: `kept the results of node(s) ${[...kept].join(', ') || 'none'}; ${revised.nodes.length - kept.size} node(s) to run`,
      });
    }
  }

  /** Runs the waves of the graph in use: 'done', a revised graph to switch to, or 'stopped' by a budget. */
  private async runWaves(needed: Set<number>): Promise<'done' | 'stopped' | SubQuestionDag> {
    const waves = topologicalWaves(this.current);
    for (const [wave, ids] of waves.entries()) {
      const todo = ids.filter((id) => needed.has(id) && !this.results.has(id));
      const runs = await Promise.all(todo.map((id) => this.solveNode(id, wave)));
      if (runs.some((r) => r === null)) return 'stopped';
      const failing: number[] = [];
      runs.forEach((r, i) => {
        const id = todo[i];
        this.remember(id, r!);
        const failed = this.callsForRefinement(r!);
        if (!failed) this.results.set(id, r!.result!);
        else failing.push(id);
        this.state.ran(id, r!, failed ? 'failed' : 'done');
      });
      if (!failing.length) continue;
      const revised = await this.refine(failing[0]);
      if (revised === 'stopped') return 'stopped';
      if (revised) return revised;
      this.degrade(failing);
    }
    return 'done';
  }

  /** One node: SQL from the model for its sub-question with inputs resolved, then a read-only run. */
  private async solveNode(id: number, wave: number): Promise<NodeRun | null> {
    const { kit, ctx } = this;
    const node = this.current.nodes.find((n) => n.id === id)!;
    const upstream = (dependenciesOf(this.current).get(id) ?? []).map((d) => this.results.get(d)!);
    const label = `node ${id}: ${node.question.slice(0, SUMMARY_CHARS)}`;
    this.state.update(id, { state: 'running', wave });
    let generated;
    try {
      generated = await kit.runner.paidStep(
        { stage: STAGE, name: 'generateNodeSql', summary: `SQL for ${label}`, llmCalls: 1 },
        (o) => kit.llm.generateNodeSql.executeWithOptions(o, [{ ctx, node, upstream }]),
        (r) => ({ outcome: r.sql, detail: { node: id, resolvedQuestion: r.resolvedQuestion, reasoning: r.reasoning } }),
      );
    } catch (err) {
      // The model could not write SQL for this step: a failed node, like SQL that does not run. The
      // refiner reads this text, so it names the failure's kind, not its message: a timeout's message
      // carries its deadline in ms, which follows the machine's speed, and a replay of the run from
      // the LLM cache would then send the refiner another prompt (the trace keeps the message).
      const error = `no SQL (${failureType(err) ?? 'the step failed'})`;
      return { ok: false, failure: 'error', error, sql: '', resolvedSql: '', composedSql: '', truncated: false, preview: [] };
    }
    if (!generated) return null;
    this.state.update(id, { resolvedQuestion: generated.resolvedQuestion, sql: generated.sql });
    const attempt = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, attempt);
    const { decomposition } = kit.config;
    return kit.runner.step(
      { stage: STAGE, name: 'executeNode', summary: `run ${label}` },
      (o) =>
        kit.online.executeNode.executeWithOptions(o, [
          {
            database: kit.input.database,
            node,
            sql: generated.sql,
            upstream,
            resultKey: `${this.keyPrefix}n${id}-${attempt}`,
            inlineRows: decomposition.inlineRows,
            timeoutMs: kit.limits.sqlTimeoutMs,
            maxRows: NODE_MAX_ROWS,
            maxCellBytes: kit.limits.maxCellBytes,
          },
        ]),
      (r) => ({
        outcome: r.ok ? `${r.result!.rowCount} rows${r.truncated ? ' (cut)' : ''}, passed on ${r.result!.passedAs}` : `${r.failure}: ${r.error}`,
        detail: { node: id, sql: r.resolvedSql },
      }),
    );
  }

  /**
   * Whether a node's run calls the topology refiner. The paper's trigger (§3.7) is SQL that does not
   * execute; an empty or all-NULL result is built on as it is, unless `refineOn` says otherwise.
   */
  private callsForRefinement(r: NodeRun): boolean {
    if (r.ok) return false;
    return !r.result || r.failure === 'error' || this.kit.config.decomposition.refineOn === 'errors-and-empty';
  }

  /** Keeps a node's best run: one that ran beats one that did not (an empty result can still be built on). */
  private remember(id: number, r: NodeRun): void {
    const previous = this.best.get(id);
    if (!previous || r.ok || (r.result && !previous.result)) this.best.set(id, r);
  }

  /**
   * The topology refiner (C.5, Algorithm 4), asked once per failure as Algorithm 1 does, or with
   * `retryRejected` until it proposes a usable graph or its B calls are spent.
   * null: no usable revision (the caller degrades); 'stopped': a budget ended the run.
   */
  private async refine(failedNode: number): Promise<SubQuestionDag | null | 'stopped'> {
    const { kit, state } = this;
    const { maxRefinements: limit, retryRejected } = kit.config.decomposition;
    const failure = this.best.get(failedNode)?.error ?? 'the step failed';
    const rejectedProposals: { dag: unknown; reason: string }[] = [];
    while (this.refinerCalls < limit) {
      if (!kit.budget.takeRepair()) {
        kit.runner.note(STAGE, 'refineTopology', 'topology refinement', { skipped: kit.budget.stoppedBy?.message ?? 'refinement budget reached' });
        return null;
      }
      this.refinerCalls++;
      const origin = `refiner (call ${this.refinerCalls} of ${limit}) after node ${failedNode} failed`;
      let out;
      try {
        out = await kit.runner.paidStep(
          {
            stage: STAGE,
            name: 'refineTopology',
            summary: `topology refiner (C.5): node ${failedNode} failed: ${failure.slice(0, SUMMARY_CHARS)}`,
            llmCalls: 1,
          },
          (o) =>
            kit.llm.refineTopology.executeWithOptions(o, [
              {
                question: kit.input.question,
                ...(kit.input.evidence ? { evidence: kit.input.evidence } : {}),
                dag: this.current,
                failedNode,
                failure,
                completed: [...this.results.keys()].sort((a, b) => a - b),
                rejected: rejectedProposals,
              },
            ]),
        );
      } catch (err) {
        kit.runner.note(STAGE, 'refineTopology', 'the refiner failed', { outcome: failureMessage(err) });
        if (!retryRejected) return null;
        continue;
      }
      if (!out) return 'stopped';
      const check = validateDag(out.proposed);
      const rejected = !check.ok
        ? `${check.cycle ? 'cycle' : 'invalid'}: ${check.problem}`
        : isSamePlan(this.current, check.dag)
          ? 'isomorphic to the graph in use: no change'
          : undefined;
      state.proposal(check.ok ? check.dag : out.proposed, origin, rejected);
      kit.runner.note(STAGE, 'reviewRevision', 'check the revised graph', { outcome: rejected ? `rejected (${rejected})` : 'accepted' });
      if (!rejected && check.ok) return check.dag;
      // Algorithm 4 returns the graph unchanged, and Algorithm 1 accepts the node's result and goes on.
      if (!retryRejected) return null;
      rejectedProposals.push({ dag: out.proposed, reason: rejected! });
    }
    return null;
  }

  /** Refinements are spent: each failing node's best result is accepted so the nodes downstream can run. */
  private degrade(failing: number[]): void {
    for (const id of failing) {
      const best = this.best.get(id)!;
      const node = this.current.nodes.find((n) => n.id === id)!;
      // A node whose SQL never ran has no rows: downstream it is an empty input.
      const result = best.result ?? { id, question: node.question, ref: '', passedAs: 'inline' as const, columns: [], rowCount: 0, composedSql: 'SELECT NULL' };
      this.results.set(id, result);
      this.state.update(id, { state: 'accepted-degraded' });
    }
    this.state.report.degraded = true;
    this.kit.runner.note(STAGE, 'degrade', 'no refinement left', {
      outcome: `accepted the best result of node(s) ${failing.join(', ')}; the nodes downstream go on`,
    });
  }
}
