import { focusHasColumn, mergeFocus } from '../linking/focused-schema';
import type { FocusedTable } from '../question/focused-table';
import type { ColumnRef } from '../preparation/column-ref';

/** The part of a disambiguation note the online stage needs. */
export interface NoteForQuestion {
  id: string;
  columns: ColumnRef[];
  note: string;
}

/**
 * DexterSQL §3.3.1: a note is a candidate when at least one of its columns is in the focused
 * schema (with the whole schema in focus, every note is).
 */
export function candidateNotes<T extends NoteForQuestion>(notes: T[], focus: FocusedTable[] | null): T[] {
  if (focus === null) return notes;
  return notes.filter((n) => n.columns.some((c) => focusHasColumn(focus, c)));
}

/** The focus expanded by the columns of the selected notes: it only ever grows (§3.3.1). */
export function expandFocusWithNotes(focus: FocusedTable[] | null, selected: NoteForQuestion[]): { focus: FocusedTable[] | null; added: ColumnRef[] } {
  if (focus === null) return { focus, added: [] };
  const added = selected
    .flatMap((n) => n.columns)
    .filter((c, i, all) => !focusHasColumn(focus, c) && all.findIndex((x) => x.table === c.table && x.column === c.column) === i);
  return { focus: mergeFocus(...focus, ...added.map((c) => ({ table: c.table, columns: [c.column] }))), added };
}
