import { columnKey, type ColumnRef } from '../preparation/column-ref';

/**
 * §3.1.3 Step 4: "If multiple ambiguous pairs share columns, this step groups them into a
 * confusable family and creates one family-level note." Families are the connected components
 * of the graph whose nodes are columns and whose edges are confirmed pairs. Deterministic:
 * families and their members come out sorted.
 */
export interface PairFamily<P> {
  columns: ColumnRef[];
  pairs: P[];
}

export function groupPairFamilies<P extends { id: string; a: ColumnRef; b: ColumnRef }>(pairs: P[]): PairFamily<P>[] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(k, root);
    return root;
  };
  const refs = new Map<string, ColumnRef>();
  for (const pair of pairs) {
    for (const ref of [pair.a, pair.b]) {
      const k = columnKey(ref).toLowerCase();
      if (!parent.has(k)) parent.set(k, k);
      refs.set(k, ref);
    }
    const [ra, rb] = [find(columnKey(pair.a).toLowerCase()), find(columnKey(pair.b).toLowerCase())];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const families = new Map<string, PairFamily<P>>();
  for (const pair of [...pairs].sort((x, y) => x.id.localeCompare(y.id))) {
    const root = find(columnKey(pair.a).toLowerCase());
    let family = families.get(root);
    if (!family) families.set(root, (family = { columns: [], pairs: [] }));
    family.pairs.push(pair);
  }
  for (const [root, family] of families) {
    family.columns = [...refs.keys()]
      .filter((k) => find(k) === root)
      .sort()
      .map((k) => refs.get(k)!);
  }
  return [...families.values()].sort((x, y) => x.pairs[0].id.localeCompare(y.pairs[0].id));
}
