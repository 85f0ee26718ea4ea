import { findJoinPath, type ForeignKeyEdge, type JoinStep } from '../exploration/join-paths';
import { bridgeJoins } from '../indexing/bridge-tables';

/**
 * The joins a query over `tables` may need: for each pair, the shortest PK/FK path of at most
 * `maxHops` joins (declared or inferred keys; every key when two tables join directly, since a
 * flight's source and destination airport are both joins and the question decides which), then,
 * with `bridges`, the link tables between them (core/indexing/bridge-tables). A question names
 * the tables it is about; the columns joining them it never says.
 */
export function joinStepsBetween(foreignKeys: ForeignKeyEdge[], tables: string[], maxHops: number, bridges: boolean): JoinStep[] {
  const steps: JoinStep[] = [];
  for (let i = 0; i < tables.length; i++) {
    for (let j = i + 1; j < tables.length; j++) {
      const path = findJoinPath(foreignKeys, tables[i], tables[j], maxHops) ?? [];
      steps.push(...(path.length === 1 ? parallelJoins(foreignKeys, tables[i], tables[j]) : path));
    }
  }
  if (bridges) steps.push(...bridgeJoins(foreignKeys, tables));
  return steps;
}

/** Every foreign key between two tables, in either direction. */
function parallelJoins(foreignKeys: ForeignKeyEdge[], a: string, b: string): JoinStep[] {
  const same = (x: string, y: string) => x.toLowerCase() === y.toLowerCase();
  return foreignKeys
    .filter((fk) => (same(fk.fromTable, a) && same(fk.toTable, b)) || (same(fk.fromTable, b) && same(fk.toTable, a)))
    .map((fk) => ({ left: fk.fromTable, leftColumns: fk.fromColumns, right: fk.toTable, rightColumns: fk.toColumns, leftIsReferenced: false }));
}
