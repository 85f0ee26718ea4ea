import type { Finding } from '../../../core/correction/finding';
import type { SchemaInfo } from '../../../core/database/schema-types';
import type { CheckInput } from './check-input';
import { distinct, hasColumn, idLike, linkedTables, ownWords, same } from './query-tables';
import { mentions, questionWords } from './question-words';
import { rereadColumns } from './reread-columns';
import { withoutJoinConditions } from './without-join-conditions';
import { fromTables, withoutJoins } from './without-joins';

/**
 * A table joined only to read columns that another table of the query has too: employees joined
 * to their customers to filter `Customer.City` when the question asks where the employees live,
 * campuses joined to their fees to compare `csu_fees.Year` when it asks when a campus opened. A
 * small model reaches for the first table it sees with the column's name; the query runs, and
 * answers about the wrong rows (the customers' city, a fee's year), repeated once per match.
 * Silent when the question names the joined table ("employees whose customers live in …"), when a
 * column read is a key (a join makes both sides equal there) or a label (`name`, `title`: each
 * table names its own things, so "aircraft John Williams flies" filters `employee.name` rightly),
 * when the two columns hold different kinds of value (`degrees.Campus` is a number, `campuses.Campus`
 * a name), and when the table links two others of the query (a bridge, not a detour). Measured on
 * Spider train's gold SQL with `npm run bench:question-checks`. Only a warning: the reviser decides.
 */
export function borrowedColumn(input: CheckInput): Finding | null {
  if (!input.execution.ok || !input.analysis.ok || input.analysis.tables.length < 2) return null;
  const { schema } = input;
  const tables = input.analysis.tables;
  const stripped = withoutJoinConditions(input.sql, schema.dialect);
  const beside = stripped === null ? null : input.analyze(stripped);
  if (!beside?.ok) return null;
  const words = questionWords(input.question);
  for (const table of tables) {
    const reads = distinct(beside.columns.filter((c) => c.table !== null && same(c.table, table) && c.column !== '*').map((c) => c.column));
    if (!reads.length || reads.some((column) => isKey(schema, table, column) || LABEL.test(column))) continue;
    const twins = reads.map((column) => ({
      column,
      owners: tables.filter((t) => !same(t, table) && hasColumn(schema, t, column) && sameKind(schema, [table, t], column)),
    }));
    if (twins.some((t) => !t.owners.length)) continue;
    if (linkedTables(schema, table, tables) >= 2) continue;
    const own = ownWords(table, tables);
    if (!own.length || own.some((w) => mentions(words, w))) continue;
    const read = twins.map((t) => `${table}.${t.column}`).join(', ');
    const instead = twins.map((t) => `${t.owners.join(' or ')}.${t.column}`).join(', ');
    const fixed = rereadFromOwner(input, table, twins);
    return {
      check: 'borrowed-column',
      severity: 'warning',
      ...(fixed ? { fix: { sql: fixed, description: `${instead} read instead of ${read}, the join to ${table} removed` } } : {}),
      message:
        `the query joins ${table} only to read ${read}, but ${instead} ${twins.length > 1 ? 'are' : 'is'} already in the query, and the question does not mention ${table}; ` +
        `if the question is about ${distinct(twins.flatMap((t) => t.owners)).join(' or ')}, read ${twins.length > 1 ? 'those columns' : 'that column'} there and remove the join`,
    };
  }
  return null;
}

/**
 * The query reading each borrowed column from the one other table of the query that has it, with
 * the join to the borrowed table cut (`correction.joinFixes`), or null when a column has several
 * such tables or the query is not one plain SELECT over `JOIN ... ON` (see without-joins.ts).
 */
function rereadFromOwner(input: CheckInput, table: string, twins: { column: string; owners: string[] }[]): string | null {
  if (twins.some((t) => t.owners.length !== 1)) return null;
  const from = fromTables(input.sql, input.schema.dialect);
  const only = (name: string) => {
    const found = from?.filter((f) => same(f.table, name)) ?? [];
    return found.length === 1 ? found[0] : null;
  };
  const borrowed = only(table);
  if (!borrowed) return null;
  let sql: string | null = input.sql;
  for (const twin of twins) {
    const owner = only(twin.owners[0]);
    if (!owner || sql === null) return null;
    sql = rereadColumns(sql, input.schema.dialect, borrowed.reference, owner.written, [twin.column]);
  }
  return sql === null ? null : withoutJoins(sql, input.schema.dialect, [table]);
}

/** A column that names its row's thing (`name`, `Fname`, `song_title`). */
const LABEL = /(name|title)$/i;

/** A key column (its table's primary key, a foreign key, or key-shaped): joined tables agree on it. */
function isKey(schema: SchemaInfo, table: string, column: string): boolean {
  if (idLike(column) || /^id$/i.test(column)) return true;
  const info = schema.tables.find((t) => same(t.name, table));
  if (!info) return false;
  return (
    info.primaryKey.some((k) => same(k, column)) ||
    schema.tables.some((t) =>
      t.foreignKeys.some(
        (fk) =>
          (same(fk.fromTable, table) && fk.fromColumns.some((c) => same(c, column))) || (same(fk.toTable, table) && fk.toColumns.some((c) => same(c, column))),
      ),
    )
  );
}

/** Both tables' columns of this name hold numbers, or both do not (declared types; an undeclared one agrees with anything). */
function sameKind(schema: SchemaInfo, tables: string[], column: string): boolean {
  const kinds = tables.map((t) => {
    const declared = schema.tables.find((x) => same(x.name, t))?.columns.find((c) => same(c.name, column))?.type ?? '';
    return declared.trim() === '' ? null : /int|real|num|dec|float|double/i.test(declared);
  });
  return kinds[0] === null || kinds[1] === null || kinds[0] === kinds[1];
}
