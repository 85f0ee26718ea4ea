import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';
import { hasColumn, linkedTables, ownWords } from './query-tables';
import { mentions, questionWords } from './question-words';
import { withoutJoinConditions } from './without-join-conditions';
import { withoutJoins } from './without-joins';

/**
 * Counting reads a join's rows without naming its columns ("how many loans per book"). Grouping
 * alone does not: a sum or average per group over a table joined for nothing counts each row once
 * per match (2 of the 6,901 Spider train gold queries group that way: one query, two phrasings).
 */
const COUNTS = /\bcount\s*\(/i;
/**
 * A table joined only to be joined: outside its ON condition the query reads none of its columns,
 * it links no two other tables the query keeps (a chain of such tables counts whole), and the
 * question names nothing of it. Small models
 * join every table the schema links to the ones they need (singers joined with their concerts to
 * list singers), and an inner join then drops the rows without a match and repeats those with
 * several, so lists, sums and extremes come out wrong. Only a warning: "singers who have
 * performed" needs the join, and its question says so.
 */
export function unusedJoin(input: CheckInput): Finding | null {
  if (!input.execution.ok || !input.analysis.ok || input.analysis.tables.length < 2 || COUNTS.test(input.sql)) return null;
  const tables = input.analysis.tables;
  const stripped = withoutJoinConditions(input.sql, input.schema.dialect);
  const beside = stripped === null ? null : input.analyze(stripped);
  if (!beside?.ok) return null;
  const read = (table: string) =>
    beside.columns.some((c) => c.table?.toLowerCase() === table.toLowerCase() || (c.table === null && hasColumn(input.schema, table, c.column)));
  // Every table only joined (`SELECT count(*) FROM a JOIN b ON …`): the pairs may be the point.
  if (!tables.some(read)) return null;
  const { dangling, kept } = danglingJoins(tables, read, (t, among) => linkedTables(input.schema, t, among));
  if (!dangling.length) return null;
  const words = questionWords(input.question);
  const named = (table: string) => {
    const own = ownWords(table, [...kept, table]);
    return own.length === 0 || own.some((w) => mentions(words, w));
  };
  const unnamed = withoutLinksToNamed(dangling, named, (t, among) => linkedTables(input.schema, t, among));
  if (!unnamed.length) return null;
  const several = unnamed.length > 1;
  const cut = withoutJoins(input.sql, input.schema.dialect, unnamed);
  return {
    check: 'unused-join',
    severity: 'warning',
    ...(cut ? { fix: { sql: cut, description: `the join to ${unnamed.join(', ')} removed` } } : {}),
    message:
      `the query joins ${unnamed.join(', ')} but reads nothing from ${several ? 'them' : 'it'} beyond the join, and the question does not mention ${several ? 'them' : 'it'}; ` +
      'an inner join keeps only rows with a match there and repeats rows with several matches: remove the join unless the question needs it',
  };
}

/**
 * The tables a query could drop without losing anything it reads: one that is not read and links
 * at most one other table still kept, again until none is left. So a chain joined for nothing goes
 * whole (singers joined to their concerts through `singer_in_concert`: `concert` first, then
 * `singer_in_concert`, which then links only `singer`), while a table that links two kept tables stays.
 */
function danglingJoins(
  tables: readonly string[],
  read: (table: string) => boolean,
  links: (table: string, among: readonly string[]) => number,
): { dangling: string[]; kept: string[] } {
  const dangling: string[] = [];
  let kept = [...tables];
  for (;;) {
    const next = kept.find((t) => !read(t) && links(t, kept) < 2);
    if (next === undefined) return { dangling, kept };
    dangling.push(next);
    kept = kept.filter((t) => t !== next);
  }
}

/**
 * The dangling tables the question does not name, less those that link one it names: documents
 * joined through their sections to the sections' images, for "documents without any images", need
 * the sections to reach the images (a chain leading to a named table is the question's).
 */
function withoutLinksToNamed(
  dangling: readonly string[],
  named: (table: string) => boolean,
  links: (table: string, among: readonly string[]) => number,
): string[] {
  const reached = dangling.filter(named);
  let unnamed = dangling.filter((t) => !reached.includes(t));
  for (;;) {
    const next = unnamed.find((t) => links(t, reached) > 0);
    if (next === undefined) return unnamed;
    reached.push(next);
    unnamed = unnamed.filter((t) => t !== next);
  }
}
