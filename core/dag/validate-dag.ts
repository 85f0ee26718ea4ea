import { placeholdersIn } from './placeholders';
import type { SubQuestionDag } from './sub-question-dag';
import { CycleError, topologicalWaves } from './topological-waves';

/** The root: its result answers the whole question (the decomposer prompt's rule). */
export const ROOT_NODE = 0;

export type DagCheck = { ok: true; dag: SubQuestionDag; notes: string[] } | { ok: false; problem: string; cycle: boolean };

/**
 * Checks a graph a model proposed and returns it in normal form, or names the first problem
 * (the decomposer gets it back once; the refiner's proposal is rejected with it):
 * - it is an object with `nodes` (integer `id`, non-empty `question`) and `edges` ([parent, child]);
 * - ids are unique and node 0, the root, exists;
 * - every edge and every `@[n]` names an existing node other than the node itself;
 * - there is no cycle (Kahn's algorithm).
 * A placeholder is itself a dependency: an `@[n]` without its edge gets the edge (and a note).
 */
export function validateDag(raw: unknown): DagCheck {
  const fail = (problem: string, cycle = false): DagCheck => ({ ok: false, problem, cycle });
  if (!raw || typeof raw !== 'object') return fail('the answer is not a JSON object with "nodes" and "edges"');
  const { nodes, edges } = raw as { nodes?: unknown; edges?: unknown };
  if (!Array.isArray(nodes) || !nodes.length) return fail('"nodes" must be a non-empty list');
  if (edges !== undefined && !Array.isArray(edges)) return fail('"edges" must be a list of [parent, child] pairs');
  const dag: SubQuestionDag = { nodes: [], edges: [] };
  const notes: string[] = [];
  for (const n of nodes as { id?: unknown; question?: unknown }[]) {
    const id = typeof n?.id === 'string' && /^\d+$/.test(n.id) ? Number(n.id) : n?.id;
    if (!Number.isInteger(id) || (id as number) < 0) return fail(`node id ${JSON.stringify(n?.id)} is not a non-negative integer`);
    if (typeof n.question !== 'string' || !n.question.trim()) return fail(`node ${id} has no question`);
    if (dag.nodes.some((m) => m.id === id)) return fail(`node id ${id} is used twice`);
    dag.nodes.push({ id: id as number, question: n.question.trim() });
  }
  if (!dag.nodes.some((n) => n.id === ROOT_NODE)) return fail(`there is no root node ${ROOT_NODE} (the node that answers the whole question)`);
  const exists = (id: number) => dag.nodes.some((n) => n.id === id);
  const addEdge = (parent: number, child: number) => {
    if (!dag.edges.some(([p, c]) => p === parent && c === child)) dag.edges.push([parent, child]);
  };
  for (const e of (edges ?? []) as unknown[]) {
    if (!Array.isArray(e) || e.length !== 2 || !e.every((x) => Number.isInteger(Number(x))))
      return fail(`edge ${JSON.stringify(e)} is not a [parent, child] pair of node ids`);
    const [parent, child] = e.map(Number);
    if (!exists(parent) || !exists(child)) return fail(`edge [${parent}, ${child}] names a node that does not exist`);
    if (parent === child) return fail(`node ${parent} depends on itself`, true);
    addEdge(parent, child);
  }
  for (const n of dag.nodes) {
    for (const ref of placeholdersIn(n.question)) {
      if (ref === n.id) return fail(`node ${n.id} refers to its own result @[${ref}]`, true);
      if (!exists(ref)) return fail(`node ${n.id} refers to @[${ref}], which is not a node`);
      if (!dag.edges.some(([p, c]) => p === n.id && c === ref)) {
        addEdge(n.id, ref);
        notes.push(`node ${n.id} uses @[${ref}] without an edge; the edge was added`);
      }
    }
  }
  try {
    topologicalWaves(dag);
  } catch (err) {
    if (err instanceof CycleError) return fail(err.message, true);
    throw err;
  }
  return { ok: true, dag, notes };
}
