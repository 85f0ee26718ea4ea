/**
 * PK/FK join paths between two tables (DexterSQL §3.1.3 Step 3: "when Ti and Tj are connected
 * through one or more intermediate tables along a PK/FK join path"). Foreign keys are edges
 * usable in both directions; the shortest path wins, ties broken by table and column names so
 * the same schema always gives the same path.
 */
export interface ForeignKeyEdge {
  fromTable: string;
  fromColumns: string[];
  toTable: string;
  toColumns: string[];
}

/** One join: `left.leftColumns = right.rightColumns`. `leftIsReferenced` says the left side is the FK's target. */
export interface JoinStep {
  left: string;
  leftColumns: string[];
  right: string;
  rightColumns: string[];
  leftIsReferenced: boolean;
}

export function findJoinPath(foreignKeys: ForeignKeyEdge[], start: string, end: string, maxHops: number): JoinStep[] | null {
  const key = (t: string) => t.toLowerCase();
  if (key(start) === key(end)) return null;
  const neighbours = new Map<string, JoinStep[]>();
  const add = (step: JoinStep) => {
    const list = neighbours.get(key(step.left)) ?? [];
    list.push(step);
    neighbours.set(key(step.left), list);
  };
  for (const fk of foreignKeys) {
    if (key(fk.fromTable) === key(fk.toTable)) continue; // a self-reference never links two tables
    add({ left: fk.toTable, leftColumns: fk.toColumns, right: fk.fromTable, rightColumns: fk.fromColumns, leftIsReferenced: true });
    add({ left: fk.fromTable, leftColumns: fk.fromColumns, right: fk.toTable, rightColumns: fk.toColumns, leftIsReferenced: false });
  }
  for (const list of neighbours.values()) list.sort((a, b) => stepOrder(a).localeCompare(stepOrder(b)));

  // Breadth-first: the first time `end` is reached, the path is one of the shortest.
  const cameFrom = new Map<string, JoinStep | null>([[key(start), null]]);
  let frontier = [key(start)];
  for (let hop = 0; hop < maxHops && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const table of frontier) {
      for (const step of neighbours.get(table) ?? []) {
        const to = key(step.right);
        if (cameFrom.has(to)) continue;
        cameFrom.set(to, step);
        if (to === key(end)) return unwind(cameFrom, to);
        next.push(to);
      }
    }
    frontier = next;
  }
  return null;
}

function unwind(cameFrom: Map<string, JoinStep | null>, last: string): JoinStep[] {
  const path: JoinStep[] = [];
  for (let step = cameFrom.get(last); step; step = cameFrom.get(step.left.toLowerCase())) path.unshift(step);
  return path;
}

function stepOrder(step: JoinStep): string {
  return `${step.right.toLowerCase()}|${step.rightColumns.join(',')}|${step.leftColumns.join(',')}|${step.leftIsReferenced ? 0 : 1}`;
}

/** The same path walked from the other end. */
export function reversePath(path: JoinStep[]): JoinStep[] {
  return [...path].reverse().map((s) => ({
    left: s.right,
    leftColumns: s.rightColumns,
    right: s.left,
    rightColumns: s.leftColumns,
    leftIsReferenced: !s.leftIsReferenced,
  }));
}

/**
 * The paper defines coverage and fan-out from the primary-key side Ti ("We assume that Ti.X is
 * the primary key and Tj.X is the corresponding foreign key"). Returns the path starting at the
 * side whose first join uses the referenced key, and whether it had to be reversed. When
 * neither end is a referenced key (two tables referencing a third), the path stays as given.
 */
export function orientFromKeySide(path: JoinStep[]): { path: JoinStep[]; reversed: boolean } {
  if (path[0].leftIsReferenced) return { path, reversed: false };
  const reversed = reversePath(path);
  if (reversed[0].leftIsReferenced) return { path: reversed, reversed: true };
  return { path, reversed: false };
}

export function describePath(path: JoinStep[]): string {
  return path.map((s) => s.leftColumns.map((c, i) => `${s.left}.${c} = ${s.right}.${s.rightColumns[i]}`).join(' AND ')).join(' → ');
}
