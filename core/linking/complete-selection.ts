import type { SchemaInfo } from '../database/schema-types';
import type { ForeignKeyEdge } from '../exploration/join-paths';
import { columnNameMatches } from '../indexing/column-name-matches';
import type { ColumnRef } from '../preparation/column-ref';
import type { FocusedTable } from '../question/focused-table';
import { canonicalFocus, focusHasColumn, mergeFocus } from './focused-schema';
import { joinStepsBetween } from './join-columns';

/** Join paths of at most this many joins connect the selected tables (as retrieval does). */
const JOIN_HOPS = 2;

export interface SelectionCompletionInput {
  schema: SchemaInfo;
  /** Declared foreign keys, and those inferred when the database is prepared. */
  foreignKeys: ForeignKeyEdge[];
  /** The tables the model selected (step 2) and the columns it kept of them (step 3). */
  tables: string[];
  selected: FocusedTable[];
  question: string;
  keywords: string[];
  /** Columns storing a value the question or its keywords say exactly (empty when unprepared). */
  valueMatches: ColumnRef[];
}

export interface CompletedSelection {
  focus: FocusedTable[];
  /** What completion added and why, for the trace. */
  added: { table: string; column: string; reason: 'name' | 'value' | 'join' }[];
}

/**
 * DecoSearch's selector prunes the schema in three model calls and, its paper says, follows
 * CHESS's schema pruning, which keeps more than the model lists: the columns whose names or stored
 * values match the question's keywords, and the primary/foreign-key columns connecting the
 * selected tables. A small model lists mostly what the question returns (1.6 columns a question
 * on Spider dev), not what it filters, groups or joins on, so without this the query meets "no
 * such column". Plain code, no call: the model's choice only grows.
 *
 * Kept: the model's columns; columns of the selected tables the question or keywords name;
 * columns holding a value the question says (their table joins the selection: a filter on it
 * is part of the query); the join columns of the paths between all those tables, with any table
 * on a path.
 */
export function completeSelection(input: SelectionCompletionInput): CompletedSelection {
  const { schema } = input;
  const added: CompletedSelection['added'] = [];
  let focus = mergeFocus(...input.selected, ...input.tables.map((table) => ({ table, columns: [] })));
  const add = (table: string, column: string, reason: CompletedSelection['added'][number]['reason']) => {
    const real = canonicalFocus(schema, [{ table, columns: [column] }])[0];
    if (!real || focusHasColumn(focus, { table: real.table, column: real.columns[0] })) return;
    focus = mergeFocus(...focus, real);
    added.push({ table: real.table, column: real.columns[0], reason });
  };

  for (const match of input.valueMatches) add(match.table, match.column, 'value');
  const tablesNow = () => focus.map((t) => t.table);
  const selectedTables = schema.tables.filter((t) => tablesNow().some((name) => name.toLowerCase() === t.name.toLowerCase()));
  const said = `${input.question} ${input.keywords.join(' ')}`;
  for (const m of columnNameMatches(
    said,
    selectedTables.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })),
  ))
    add(m.table, m.column, 'name');
  for (const step of joinStepsBetween(input.foreignKeys, tablesNow(), JOIN_HOPS, true)) {
    for (const column of step.leftColumns) add(step.left, column, 'join');
    for (const column of step.rightColumns) add(step.right, column, 'join');
  }
  // A selected table none of whose columns survived still shows its keys (restrictSchema adds them).
  return { focus: canonicalFocus(schema, focus).concat(focus.filter((t) => !t.columns.length && schema.tables.some((s) => s.name === t.table))), added };
}
