import { replacePlaceholders } from './placeholders';
import type { SubQuestionDag } from './sub-question-dag';
import { dependenciesOf } from './topological-waves';

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A node's signature: its question (placeholders stripped of their numbers) and its
 * dependencies' signatures, recursively. Two graphs with the same multiset of signatures are
 * the same plan up to a renumbering of the nodes.
 */
function signatures(dag: SubQuestionDag): string[] {
  const deps = dependenciesOf(dag);
  const byId = new Map(dag.nodes.map((n) => [n.id, n]));
  const memo = new Map<number, string>();
  const sig = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const text = normalize(replacePlaceholders(byId.get(id)!.question, () => '@'));
    const s = `${text}(${(deps.get(id) ?? []).map(sig).sort().join('|')})`;
    memo.set(id, s);
    return s;
  };
  return dag.nodes.map((n) => sig(n.id)).sort();
}

/**
 * The topology refiner must change the plan (§3.7; the paper rejects a revision "isomorphic to
 * the original"). Node texts count as labels: rephrasing a node is one of the refiner's allowed
 * operations, so only a graph with the same structure *and* the same questions, up to
 * renumbering and whitespace or case, is the same plan.
 */
export function isSamePlan(a: SubQuestionDag, b: SubQuestionDag): boolean {
  if (a.nodes.length !== b.nodes.length) return false;
  const sa = signatures(a);
  const sb = signatures(b);
  return sa.every((s, i) => s === sb[i]);
}

/**
 * The nodes of `revised` whose result from `current` still holds: same id, same question, same
 * dependencies, and every dependency unchanged too. Execution resumes after them (the refiner
 * prompt asks to keep completed nodes as they are).
 */
export function unchangedNodes(current: SubQuestionDag, revised: SubQuestionDag): Set<number> {
  const before = new Map(current.nodes.map((n) => [n.id, n]));
  const depsBefore = dependenciesOf(current);
  const depsAfter = dependenciesOf(revised);
  const memo = new Map<number, boolean>();
  const same = (id: number): boolean => {
    if (memo.has(id)) return memo.get(id)!;
    memo.set(id, false); // guards against cycles (a validated graph has none)
    const old = before.get(id);
    const now = revised.nodes.find((n) => n.id === id);
    const a = [...(depsBefore.get(id) ?? [])].sort();
    const b = [...(depsAfter.get(id) ?? [])].sort();
    const result =
      !!old && !!now && normalize(old.question) === normalize(now.question) && a.length === b.length && a.every((d, i) => d === b[i]) && b.every(same);
    memo.set(id, result);
    return result;
  };
  return new Set(revised.nodes.map((n) => n.id).filter(same));
}
