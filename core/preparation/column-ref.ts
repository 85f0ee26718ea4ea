/** One column of one table; the unit that profiles, indices, pairs and notes talk about. */
export interface ColumnRef {
  table: string;
  column: string;
}

/** `table.column`, the display and lookup form used in payloads, prompts and reports. */
export function columnKey(ref: ColumnRef): string {
  return `${ref.table}.${ref.column}`;
}

/** Sorts two columns so a pair has one spelling whichever way it was found. */
export function orderedPair(a: ColumnRef, b: ColumnRef): [ColumnRef, ColumnRef] {
  return columnKey(a).toLowerCase() <= columnKey(b).toLowerCase() ? [a, b] : [b, a];
}

/** Stable id of an unordered column pair: `a.x~b.y` with the two sides in sorted order. */
export function pairId(a: ColumnRef, b: ColumnRef): string {
  const [first, second] = orderedPair(a, b);
  return `${columnKey(first)}~${columnKey(second)}`;
}
