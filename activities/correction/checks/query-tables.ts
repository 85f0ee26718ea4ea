import type { SchemaInfo } from '../../../core/database/schema-types';
import { nameWords, stem } from './question-words';

/**
 * What the question checks ask of the tables a query reads: which columns a table has, how it
 * links to the query's other tables, and which words of its name are its own.
 */

/**
 * A column that may hold another table's key (`customer_id`, `CountryCode`). A bare `id` (or
 * `code`, `no`) is each table's own key: two tables that both have one are not linked by it.
 */
export const idLike = (column: string) => /_(id|code|no|num)$/i.test(column) || /[a-z](ID|Id|Code|No|Num)$/.test(column);

/** Two names of the schema are the same name, case aside (as SQL compares them). */
export const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The names without repeats, case aside, in first-seen order. */
export const distinct = (names: string[]) => names.filter((n, i) => names.findIndex((m) => same(m, n)) === i);

/** Whether the table has the column (`*`: every table has it). */
export function hasColumn(schema: SchemaInfo, table: string, column: string): boolean {
  const t = schema.tables.find((x) => same(x.name, table));
  return column === '*' || Boolean(t?.columns.some((c) => same(c.name, column)));
}

/**
 * How many other tables of the query a table is linked with: by a declared foreign key (either
 * way), or by a key-like column both have (a link the schema does not declare).
 */
export function linkedTables(schema: SchemaInfo, table: string, tables: readonly string[]): number {
  const lower = table.toLowerCase();
  const info = (name: string) => schema.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  const ids = (name: string) =>
    new Set(
      (info(name)?.columns ?? [])
        .map((c) => c.name)
        .filter(idLike)
        .map((c) => c.toLowerCase()),
    );
  const own = ids(table);
  let linked = 0;
  for (const other of tables) {
    const o = other.toLowerCase();
    if (o === lower) continue;
    const declared = schema.tables.some((t) =>
      t.foreignKeys.some(
        (fk) =>
          (fk.fromTable.toLowerCase() === lower && fk.toTable.toLowerCase() === o) || (fk.fromTable.toLowerCase() === o && fk.toTable.toLowerCase() === lower),
      ),
    );
    if (declared || [...ids(other)].some((c) => own.has(c))) linked++;
  }
  return linked;
}

/**
 * The words of a table's name that the other tables of the query do not have (`singer_in_concert`
 * beside `singer` → concert). Compared by stem (`Customer_Payments` beside `Customers` → payments:
 * a question's "customer" names the customers, not their payments), unless no word would be left,
 * then as spelt (`Apartments` beside `Apartment_Buildings` keeps apartments).
 */
export function ownWords(table: string, tables: readonly string[]): string[] {
  let rest = table;
  for (const other of tables) {
    if (same(other, table) || other.length < 3) continue;
    rest = rest.replace(new RegExp(other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ');
  }
  const otherWords = tables.filter((t) => !same(t, table)).flatMap(nameWords);
  const stems = new Set(otherWords.map(stem));
  const byStem = nameWords(rest).filter((w) => !stems.has(stem(w)));
  return byStem.length ? byStem : nameWords(rest).filter((w) => !otherWords.includes(w));
}
