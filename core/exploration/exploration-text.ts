import type { SchemaInfo } from '../database/schema-types';
import { columnKey, type ColumnRef } from '../preparation/column-ref';
import type { DatabaseDocumentation } from '../profiling/documentation';
import { describePath, findJoinPath, orientFromKeySide } from './join-paths';
import type { JoinStatistics, PairEvidence, ValueOverlap } from './pair-types';

/**
 * Text blocks for the exploration prompts (triage and note synthesis): facts only, phrased the
 * way §3.1.3 describes them, so the templates in prompts/ hold all the instructions.
 */

/** Primary and foreign keys of the two columns' tables and the join path between them. */
export function renderKeysContext(schema: SchemaInfo, a: ColumnRef, b: ColumnRef, maxJoinHops: number): string {
  const lines: string[] = [];
  for (const name of [...new Set([a.table, b.table])]) {
    const table = schema.tables.find((t) => t.name === name);
    if (!table) continue;
    lines.push(`- ${table.name}: primary key ${table.primaryKey.length ? `(${table.primaryKey.join(', ')})` : 'none declared'}`);
    for (const fk of table.foreignKeys) lines.push(`  foreign key (${fk.fromColumns.join(', ')}) references ${fk.toTable}(${fk.toColumns.join(', ')})`);
  }
  if (a.table === b.table) lines.push('Both columns are in the same table.');
  else {
    const path = findJoinPath(
      schema.tables.flatMap((t) => t.foreignKeys),
      a.table,
      b.table,
      maxJoinHops,
    );
    lines.push(
      path
        ? `Join path: ${describePath(orientFromKeySide(path).path)}`
        : `No primary/foreign-key path of at most ${maxJoinHops} joins connects ${a.table} and ${b.table}.`,
    );
  }
  return lines.join('\n');
}

/** Table descriptions from the developer documentation, when there are any. */
export function renderDocumentationContext(docs: DatabaseDocumentation | null): string {
  const lines = Object.entries(docs?.tables ?? {})
    .filter(([, t]) => t.description)
    .map(([name, t]) => `- ${name}: ${t.description}`);
  return lines.length ? `\nTable documentation:\n${lines.join('\n')}\n` : '';
}

/** Step 3's evidence on one pair in words and numbers, for note synthesis. */
export function renderPairEvidence(e: PairEvidence): string {
  const lines = [`Pair ${columnKey(e.a)} / ${columnKey(e.b)}:`];
  lines.push(`- value overlap: ${renderOverlap(e.overlap)}`);
  if (e.overlapCaseInsensitive) lines.push(`- value overlap ignoring case: ${renderOverlap(e.overlapCaseInsensitive)}`);
  lines.push(e.join ? renderJoin(e.join) : '- no primary/foreign-key join path between their tables: no join statistics');
  for (const problem of e.problems) lines.push(`- not measured: ${problem}`);
  return lines.join('\n');
}

function renderOverlap(o: ValueOverlap): string {
  return `Jaccard ${o.jaccard.toFixed(3)} (${o.intersection} shared of ${o.union} distinct values; ${o.distinctA} and ${o.distinctB} distinct on each side)`;
}

function renderJoin(j: JoinStatistics): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  const from = j.from.table;
  return [
    `- join path: ${j.pathText}`,
    `- coverage: ${pct(j.coverage)} of ${from} keys (${j.keysJoined} of ${j.keysInTable}) join at least one ${j.to.table} row`,
    `- fan-out: ${j.fanout === null ? 'n/a' : j.fanout.toFixed(3)} joined rows per matched ${from} key (${j.joinedRows} joined rows)`,
    `- agreement: ${pct(j.agreement)} of joined rows have ${columnKey(j.from)} = ${columnKey(j.to)} (${j.agreeingRows} of ${j.joinedRows})` +
      (j.agreementCaseInsensitive !== null && j.agreementCaseInsensitive !== j.agreement ? `; ${pct(j.agreementCaseInsensitive)} ignoring case` : ''),
  ].join('\n');
}
