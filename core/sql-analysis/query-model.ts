/**
 * A parser-neutral outline of a query: just the scopes, sources and leaf references that table,
 * column and literal extraction needs. Each parser adapter translates its own AST into this, and
 * one resolver (`resolve-query.ts`) turns it into an analysis, so alias, CTE and schema rules are
 * written once and behave the same whichever parser is chosen.
 */

export type QueryOutline = SelectOutline | CompoundOutline;

/** One SELECT: its own scope for names. */
export interface SelectOutline {
  kind: 'select';
  ctes: CteOutline[];
  /** FROM and JOIN sources, in order. */
  sources: SourceOutline[];
  /** Select-list items, in order; used for derived-table columns and ORDER BY aliases. */
  outputs: OutputOutline[];
  /** Every leaf of every clause (select list, ON, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT), in source order. */
  refs: RefOutline[];
}

/** UNION / INTERSECT / EXCEPT: branches in order, plus the compound's own ORDER BY / LIMIT leaves. */
export interface CompoundOutline {
  kind: 'compound';
  ctes: CteOutline[];
  branches: QueryOutline[];
  refs: RefOutline[];
}

export interface CteOutline {
  name: string;
  /** `WITH c(x, y) AS ...` renames the outputs; empty when not given. */
  columns: string[];
  query: QueryOutline;
}

export type SourceOutline = { kind: 'table'; name: string; alias: string | null } | { kind: 'derived'; alias: string | null; query: QueryOutline };

export interface OutputOutline {
  /** Alias, or the column name of a bare column item; null for an unnamed expression. */
  name: string | null;
  /** True when the item carries an explicit alias (only those can shadow columns in ORDER BY). */
  aliased: boolean;
  /** The item when it is a bare column (traceable through derived tables), else null. */
  column: ColumnRefOutline | null;
  /** Set when the item is `*` or `T.*` (qualifier in `table`). */
  star: { table: string | null } | null;
}

export interface ColumnRefOutline {
  kind: 'column';
  /** Qualifier as written (alias or table name), null when unqualified. */
  table: string | null;
  name: string;
  /**
   * Written in double quotes without a qualifier in a dialect where that may be either an
   * identifier or a string (SQLite): the resolver decides with the schema.
   */
  doubleQuoted: boolean;
}

/** `*` or `T.*` in a select list. */
export interface StarRefOutline {
  kind: 'star';
  table: string | null;
}

export type RefOutline = ColumnRefOutline | StarRefOutline | { kind: 'literal'; value: string | number } | { kind: 'subquery'; query: QueryOutline };
