import type { SubQuestionDag } from './sub-question-dag';

/** The DAG has a cycle; `nodes` are the ones on or behind it (never ready). */
export class CycleError extends Error {
  override name = 'CycleError';
  constructor(readonly nodes: number[]) {
    super(`the graph has a cycle through nodes ${nodes.join(', ')}`);
  }
}

/** Each node's direct dependencies (its children in the paper's [parent, child] edges). */
export function dependenciesOf(dag: SubQuestionDag): Map<number, number[]> {
  const deps = new Map<number, number[]>(dag.nodes.map((n) => [n.id, []]));
  for (const [parent, child] of dag.edges) {
    const list = deps.get(parent);
    if (list && !list.includes(child)) list.push(child);
  }
  return deps;
}

/**
 * Kahn's algorithm (1962), level by level: wave 0 holds the nodes with no dependencies, wave k
 * the nodes whose dependencies are all in earlier waves. Nodes of one wave are independent, so
 * they run in parallel. Nodes left over when no node is ready are on a cycle.
 */
export function topologicalWaves(dag: SubQuestionDag): number[][] {
  const deps = dependenciesOf(dag);
  const remaining = new Map([...deps].map(([id, d]) => [id, new Set(d)]));
  const waves: number[][] = [];
  while (remaining.size) {
    const ready = [...remaining].filter(([, d]) => d.size === 0).map(([id]) => id);
    if (!ready.length) throw new CycleError([...remaining.keys()].sort((a, b) => a - b));
    ready.sort((a, b) => a - b);
    waves.push(ready);
    for (const id of ready) remaining.delete(id);
    for (const d of remaining.values()) for (const id of ready) d.delete(id);
  }
  return waves;
}

/** The nodes the root needs (itself included): others can be skipped. */
export function upstreamOf(dag: SubQuestionDag, root: number): Set<number> {
  const deps = dependenciesOf(dag);
  const seen = new Set<number>();
  const visit = (id: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const d of deps.get(id) ?? []) visit(d);
  };
  visit(root);
  return seen;
}
