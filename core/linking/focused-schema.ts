import type { SchemaInfo } from '../database/schema-types';
import type { FocusedTable } from '../question/focused-table';
import type { ColumnRef } from '../preparation/column-ref';

/**
 * The focused schema (DexterSQL's Focused_NLQ, DecoSearch's S_pruned): the tables and columns a
 * question needs. `null` stands for the whole schema (no linking, or linking fell back to it).
 * Names compare case-insensitively, as both engines treat identifiers; the first spelling wins.
 */
export function focusFromColumns(columns: ColumnRef[]): FocusedTable[] {
  return mergeFocus(...columns.map((c) => ({ table: c.table, columns: [c.column] })));
}

/** The union of several focused schemas, in first-seen order; it only ever grows. */
export function mergeFocus(...parts: FocusedTable[]): FocusedTable[] {
  const tables = new Map<string, FocusedTable>();
  for (const part of parts) {
    const key = part.table.toLowerCase();
    const table = tables.get(key) ?? { table: part.table, columns: [] };
    tables.set(key, table);
    for (const column of part.columns) if (!table.columns.some((c) => c.toLowerCase() === column.toLowerCase())) table.columns.push(column);
  }
  return [...tables.values()];
}

export function focusedColumnCount(focus: FocusedTable[] | null, schema: SchemaInfo): number {
  return focus === null ? schema.tables.reduce((n, t) => n + t.columns.length, 0) : focus.reduce((n, t) => n + t.columns.length, 0);
}

export function focusHasColumn(focus: FocusedTable[], ref: ColumnRef): boolean {
  const table = focus.find((t) => t.table.toLowerCase() === ref.table.toLowerCase());
  return !!table && table.columns.some((c) => c.toLowerCase() === ref.column.toLowerCase());
}

/**
 * The schema restricted to a focus, as prompts show it: the focused tables with their focused
 * columns plus their primary-key columns (a model cannot join without them), and the foreign
 * keys whose columns all survived. Names are spelled as the schema spells them.
 */
export function restrictSchema(schema: SchemaInfo, focus: FocusedTable[] | null): SchemaInfo {
  if (focus === null) return schema;
  const wanted = new Map(focus.map((t) => [t.table.toLowerCase(), new Set(t.columns.map((c) => c.toLowerCase()))]));
  const tables = schema.tables
    .filter((t) => wanted.has(t.name.toLowerCase()))
    .map((t) => {
      const keep = wanted.get(t.name.toLowerCase())!;
      for (const pk of t.primaryKey) keep.add(pk.toLowerCase());
      return { ...t, columns: t.columns.filter((c) => keep.has(c.name.toLowerCase())) };
    });
  const has = (table: string, column: string) =>
    tables.some((t) => t.name.toLowerCase() === table.toLowerCase() && t.columns.some((c) => c.name.toLowerCase() === column.toLowerCase()));
  return {
    dialect: schema.dialect,
    tables: tables.map((t) => ({
      ...t,
      foreignKeys: t.foreignKeys.filter((fk) => fk.fromColumns.every((c) => has(t.name, c)) && fk.toColumns.every((c) => has(fk.toTable, c))),
    })),
  };
}

/** The focus as the schema spells it (drops names that do not exist): the last guard before a prompt. */
export function canonicalFocus(schema: SchemaInfo, focus: FocusedTable[]): FocusedTable[] {
  const out: FocusedTable[] = [];
  for (const part of focus) {
    const table = schema.tables.find((t) => t.name.toLowerCase() === part.table.toLowerCase());
    if (!table) continue;
    const columns = part.columns.map((c) => table.columns.find((x) => x.name.toLowerCase() === c.toLowerCase())?.name).filter((c): c is string => !!c);
    if (columns.length) out.push({ table: table.name, columns });
  }
  return mergeFocus(...out);
}
