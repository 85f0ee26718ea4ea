import type { ForeignKeyEdge, JoinStep } from '../exploration/join-paths';

/**
 * The joins through link tables between retrieved tables: a table outside `tables` with a
 * foreign key (declared or inferred) to each of two retrieved tables, like a many-to-many table
 * (`singer_in_concert` between `singer` and `concert`). A question about singers and concerts
 * never names it, and no similarity search finds it, yet its SQL must join through it.
 *
 * Only tables that reference both sides: a table both sides reference, or one in a chain
 * between them, is an entity a question names in its own words (a customer, a department),
 * which the profile index finds. Nor when the two tables also join directly: the question most
 * likely means that join. Returns the join steps of every such bridge, in schema order.
 */
export function bridgeJoins(foreignKeys: ForeignKeyEdge[], tables: string[]): JoinStep[] {
  const key = (t: string) => t.toLowerCase();
  const retrieved = new Set(tables.map(key));
  const pair = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  // Retrieved tables already joined directly need no bridge: the question most likely means that join.
  const joined = new Set(foreignKeys.map((fk) => pair(key(fk.fromTable), key(fk.toTable))));
  // For each table outside the retrieved ones, its foreign keys into retrieved tables.
  const outgoing = new Map<string, ForeignKeyEdge[]>();
  for (const fk of foreignKeys) {
    if (retrieved.has(key(fk.fromTable)) || !retrieved.has(key(fk.toTable))) continue;
    outgoing.set(key(fk.fromTable), [...(outgoing.get(key(fk.fromTable)) ?? []), fk]);
  }
  const steps: JoinStep[] = [];
  for (const edges of outgoing.values()) {
    const ends = [...new Set(edges.map((fk) => key(fk.toTable)))];
    const bridged = new Set(ends.flatMap((a) => ends.filter((b) => a !== b && !joined.has(pair(a, b))).map(() => a)));
    for (const fk of edges) {
      if (bridged.has(key(fk.toTable)))
        steps.push({ left: fk.fromTable, leftColumns: fk.fromColumns, right: fk.toTable, rightColumns: fk.toColumns, leftIsReferenced: false });
    }
  }
  return steps;
}
