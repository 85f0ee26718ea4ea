import type { SchemaHint } from './sql-analyzer';

/**
 * Case-insensitive lookup into a schema hint. SQLite and MySQL (on the usual case-insensitive
 * collations) match identifiers regardless of case, and gold SQL often spells them differently
 * from the DDL, so every comparison goes through lowercased keys while answers keep the DDL
 * spelling.
 */
export class SchemaIndex {
  private readonly tables = new Map<string, { name: string; columns: Map<string, string> }>();

  constructor(readonly hint: SchemaHint | undefined) {
    for (const t of hint?.tables ?? []) {
      this.tables.set(t.name.toLowerCase(), {
        name: t.name,
        columns: new Map(t.columns.map((c) => [c.toLowerCase(), c])),
      });
    }
  }

  get hasHint(): boolean {
    return this.hint !== undefined;
  }

  /** The DDL spelling of a table, or the name as written when the hint does not know it. */
  tableName(name: string): string {
    return this.tables.get(name.toLowerCase())?.name ?? name;
  }

  /** The table's columns (lowercased -> DDL spelling), or null when the hint does not know the table. */
  columnsOf(table: string): Map<string, string> | null {
    return this.tables.get(table.toLowerCase())?.columns ?? null;
  }
}
